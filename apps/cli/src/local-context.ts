import 'reflect-metadata';
import { loadConfig, resolveJwtSecret } from '#libs/config';
import { IdentityModule } from '#libs/identity';
import { createLogger } from '#libs/observability';
import { openDatabase } from '#libs/persistence';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';


@Module({})
class LocalModule {
  static register(dataSource: DataSource, jwtSecret: string): DynamicModule {
    return {
      module: LocalModule,
      imports: [
        TypeOrmModule.forRootAsync({ useFactory: () => dataSource.options, dataSourceFactory: async () => dataSource }),
        IdentityModule.register({ jwtSecret }),
      ],
    };
  }
}

/**
 * Runs `fn` with the platform's services on the local database (the
 * embedded one under FANOUT_HOME, started for the command if `npm start`
 * is not running, or DATABASE_URL). Operator commands use this.
 */
export async function withLocalServices<T>(fn: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const db = await openDatabase(config, logger, { migrate: true, poolSize: 2 });
  try {
    const app = await NestFactory.createApplicationContext(LocalModule.register(db.dataSource, await resolveJwtSecret(config)), { logger: false });
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}
