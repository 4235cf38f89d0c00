import assert from 'node:assert/strict';
import test from 'node:test';
import * as semver from '../src/semver.js';

test('parse accepts v and white space, rejects invalid versions', () => {
  assert.equal(semver.parse(' v2.0.10 ').patch, 10);
  for (const bad of ['1.2', '01.2.3', '1.2.3-', '1.2.3-01', 'a.b.c', '1.2.3+', '1.2.3-a..b']) assert.equal(semver.parse(bad), null, bad);
  assert.deepEqual(semver.parse('1.0.0-0.x-y').prerelease, [0, 'x-y']);
});

test('compareMain and comparePre', () => {
  assert.equal(semver.compareMain(semver.parse('1.2.3'), semver.parse('1.2.4')), -1);
  assert.equal(semver.compareMain(semver.parse('2.0.0'), semver.parse('1.9.9')), 1);
  assert.equal(semver.comparePre(semver.parse('1.0.0-alpha'), semver.parse('1.0.0')), -1);
  assert.equal(semver.comparePre(semver.parse('1.0.0'), semver.parse('1.0.0')), 0);
});

test('the precedence chain from the SemVer spec', () => {
  const chain = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
  for (let i = 0; i + 1 < chain.length; i++) {
    assert.equal(semver.compare(chain[i], chain[i + 1]), -1, `${chain[i]} < ${chain[i + 1]}`);
    assert.equal(semver.compare(chain[i + 1], chain[i]), 1);
  }
});

test('build metadata is ignored; invalid versions throw', () => {
  assert.equal(semver.compare('1.0.0+a', '1.0.0+b'), 0);
  assert.throws(() => semver.compare('1.0', '1.0.0'), TypeError);
});

test('sort returns a new ascending array', () => {
  const list = ['1.10.0', '1.2.0', '1.2.0-rc.1', '0.9.9'];
  assert.deepEqual(semver.sort(list), ['0.9.9', '1.2.0-rc.1', '1.2.0', '1.10.0']);
  assert.deepEqual(list, ['1.10.0', '1.2.0', '1.2.0-rc.1', '0.9.9']);
});

test('satisfies: plain comparators', () => {
  assert.equal(semver.satisfies('1.2.3', '1.2.3'), true);
  assert.equal(semver.satisfies('1.2.3', '>=1.2.0 <1.3.0'), true);
  assert.equal(semver.satisfies('1.3.0', '>=1.2.0 <1.3.0'), false);
  assert.equal(semver.satisfies('1.2.3', '>1.2.3'), false);
  assert.equal(semver.satisfies('1.2.3', '<=1.2.3'), true);
  assert.equal(semver.satisfies('5.0.0', '*'), true);
  assert.equal(semver.satisfies('5.0.0', ''), true);
});

test('satisfies: caret', () => {
  assert.equal(semver.satisfies('1.9.9', '^1.2.3'), true);
  assert.equal(semver.satisfies('2.0.0', '^1.2.3'), false);
  assert.equal(semver.satisfies('1.2.2', '^1.2.3'), false);
  assert.equal(semver.satisfies('0.2.9', '^0.2.3'), true);
  assert.equal(semver.satisfies('0.3.0', '^0.2.3'), false);
  assert.equal(semver.satisfies('0.0.4', '^0.0.3'), false);
});

test('satisfies: tilde', () => {
  assert.equal(semver.satisfies('1.2.9', '~1.2.3'), true);
  assert.equal(semver.satisfies('1.3.0', '~1.2.3'), false);
});

test('satisfies: prereleases only match on the same tuple', () => {
  assert.equal(semver.satisfies('2.0.0-rc.1', '^1.2.3'), false);
  assert.equal(semver.satisfies('1.3.0-rc.1', '^1.2.3'), false);
  assert.equal(semver.satisfies('1.2.3-rc.2', '>=1.2.3-rc.1'), true);
  assert.equal(semver.satisfies('1.2.4-rc.2', '>=1.2.3-rc.1'), false);
});
