import { annotationEntities } from '#libs/annotation';
import { billingEntities } from '#libs/billing';
import { campaignEntities } from '#libs/campaigns';
import { catalogEntities } from '#libs/catalog';
import { engineEntities } from '#libs/engine';
import { identityEntities } from '#libs/identity';
import { meteringEntities } from '#libs/metering';
import { migrations as allMigrations } from '../../../migrations/index.js';

/** Every entity of every domain: the one list api, scheduler and CLI open the database with. */
export const entities = [...identityEntities, ...catalogEntities, ...campaignEntities, ...meteringEntities, ...engineEntities, ...billingEntities, ...annotationEntities];
export const migrations = allMigrations;
export { openDatabase, type OpenDatabase } from './open-database.js';
