import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// graphql ships CJS and ESM entries; Nest loads the CJS one, so our code must
// too or every GraphQL type exists twice ("another module or realm").
const alias = [
  { find: /^graphql$/, replacement: require.resolve('graphql') },
  // package.json "imports" maps #libs/<name> to the sources under the "source"
  // condition; vite does not apply it to the wildcard, so spell it out here.
  { find: /^#libs\/([a-z-]+)$/, replacement: fileURLToPath(new URL('./libs/$1/src/index.ts', import.meta.url)) },
];
// swc, not vite's default transform: Nest needs emitDecoratorMetadata.
const plugins = [swc.vite({ jsc: { target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false } } })];
const resolve = { alias, conditions: ['source'] };

export default defineConfig({
  plugins,
  resolve,
  test: {
    projects: [
      {
        plugins,
        resolve,
        test: { name: 'unit', include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts'], environment: 'node' },
      },
      {
        plugins,
        resolve,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
