import { CreateIdentity1795971700416 } from './1795971700416-CreateIdentity.js';
import { AddCatalogAndCampaigns1795973381362 } from './1795973381362-AddCatalogAndCampaigns.js';
import { AddExecutionEngine1795974362837 } from './1795974362837-AddExecutionEngine.js';
import { AddResultStamps1795980669073 } from './1795980669073-AddResultStamps.js';
import { AddMeteringAndBilling1795981213426 } from './1795981213426-AddMeteringAndBilling.js';
import { AddEventAttempts1795981516474 } from './1795981516474-AddEventAttempts.js';
import { AddAnnotation1795983317796 } from './1795983317796-AddAnnotation.js';
import { AllowImportedAdjudications1795984197276 } from './1795984197276-AllowImportedAdjudications.js';

/** Every migration, oldest first. The generator writes the file; add it here. */
export const migrations = [CreateIdentity1795971700416, AddCatalogAndCampaigns1795973381362, AddExecutionEngine1795974362837, AddResultStamps1795980669073, AddMeteringAndBilling1795981213426, AddEventAttempts1795981516474, AddAnnotation1795983317796, AllowImportedAdjudications1795984197276];
