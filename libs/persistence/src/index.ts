import { identityEntities } from '#libs/identity';
import { migrations as allMigrations } from '../../../migrations/index.js';

/** Every entity of every domain: the one list api, scheduler and CLI open the database with. */
export const entities = [...identityEntities];
export const migrations = allMigrations;
export { openDatabase, type OpenDatabase } from './open-database.js';
