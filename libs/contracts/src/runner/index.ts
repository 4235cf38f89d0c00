export * from './runner-protocol.schema.js';
export * from './trajectory-event.schema.js';
