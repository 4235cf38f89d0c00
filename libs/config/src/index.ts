export * from "./app-config.js";
export * from "./jwt-secret.js";
export * from "./environment.js";
