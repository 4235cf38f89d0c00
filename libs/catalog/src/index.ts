export * from './entities/index.js';
