export { ModelPriceEntity } from './entities/model-price.entity.js';
import { ModelPriceEntity } from './entities/model-price.entity.js';
export const meteringEntities = [ModelPriceEntity];
