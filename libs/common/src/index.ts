export * from './clock.js';
export * from './domain.exception.js';
export * from './pagination.js';
