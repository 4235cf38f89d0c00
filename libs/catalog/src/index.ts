export * from './catalog.module.js';
export * from './entities/index.js';
export * from './services/agent-config.service.js';
export * from './services/benchmark.service.js';
export * from './services/manifest-input.js';
export * from './services/secret-box.js';
export * from './services/secret.service.js';
