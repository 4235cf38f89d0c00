import { CreateIdentity1795971700416 } from './1795971700416-CreateIdentity.js';
import { AddCatalogAndCampaigns1795973381362 } from './1795973381362-AddCatalogAndCampaigns.js';

/** Every migration, oldest first. The generator writes the file; add it here. */
export const migrations = [CreateIdentity1795971700416, AddCatalogAndCampaigns1795973381362];
