export * from './data-source.factory.js';
export * from './embedded-postgres.manager.js';
export * from './tenant.repository.js';
export * from './paginate.js';
export * from './column-transformers.js';
export * from './returning.js';
