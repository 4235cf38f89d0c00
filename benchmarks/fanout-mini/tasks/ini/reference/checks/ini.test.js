import assert from 'node:assert/strict';
import test from 'node:test';
import * as ini from '../src/ini.js';

test('parse sections and values', () => {
  assert.deepEqual(ini.parse('name = demo\n[server]\nport = 8080\n'), { name: 'demo', server: { port: 8080 } });
});

test('stringify writes sections', () => {
  assert.equal(ini.stringify({ a: 1, s: { b: 'x' } }), 'a = 1\n\n[s]\nb = x\n');
});
