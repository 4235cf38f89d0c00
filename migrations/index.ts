import { CreateIdentity1795971700416 } from './1795971700416-CreateIdentity.js';

/** Every migration, oldest first. The generator writes the file; add it here. */
export const migrations = [CreateIdentity1795971700416];
