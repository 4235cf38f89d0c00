import assert from 'node:assert/strict';
import test from 'node:test';
import * as semver from '../src/semver.js';

test('parse a full version', () => {
  assert.deepEqual(semver.parse('1.2.3-alpha.1+build.5'), { major: 1, minor: 2, patch: 3, prerelease: ['alpha', 1], build: ['build', '5'] });
});

test('compare orders versions', () => {
  assert.equal(semver.compare('1.2.3', '1.10.0'), -1);
});
