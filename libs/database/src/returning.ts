import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs an UPDATE/DELETE ... RETURNING and gives its rows. TypeORM's plain
 * `query()` answers such statements as `[rows, rowCount]` on Postgres (rows
 * only for SELECT and INSERT), an easy shape to misread.
 */
export async function queryReturning<T>(db: DataSource | EntityManager, sql: string, parameters: unknown[] = []): Promise<T[]> {
  const manager = db instanceof DataSource ? db.manager : db;
  const ownRunner = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, parameters, true);
    return result.records as T[];
  } finally {
    if (ownRunner) await runner.release();
  }
}
