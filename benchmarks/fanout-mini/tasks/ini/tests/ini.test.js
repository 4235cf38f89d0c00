import assert from 'node:assert/strict';
import test from 'node:test';
import * as ini from '../src/ini.js';

test('parseLine classifies lines', () => {
  assert.deepEqual(ini.parseLine('   '), { type: 'blank' });
  assert.deepEqual(ini.parseLine('  ; note'), { type: 'comment' });
  assert.deepEqual(ini.parseLine('# note'), { type: 'comment' });
  assert.deepEqual(ini.parseLine('[ a.b ]'), { type: 'section', name: 'a.b' });
  assert.deepEqual(ini.parseLine(' k = v = w'), { type: 'pair', key: 'k', value: ' v = w' });
  assert.throws(() => ini.parseLine('junk'), SyntaxError);
  assert.throws(() => ini.parseLine('[open'), SyntaxError);
});

test('setPath creates nested objects', () => {
  const root = { a: 1 };
  const node = ini.setPath(root, 'a.b.c');
  node.x = 1;
  assert.deepEqual(root, { a: { b: { c: { x: 1 } } } });
  assert.equal(ini.setPath(root, 'a.b'), root.a.b);
});

test('parse: a full file', () => {
  const text = ['; settings', 'title = "My app"', 'debug = true', '', '[db]', 'host = localhost', 'port = 5432', '', '[db.replica]', 'host = r1', '[paths]', 'dir[] = /a', 'dir[] = /b'].join('\r\n');
  assert.deepEqual(ini.parse(text), {
    title: 'My app',
    debug: true,
    db: { host: 'localhost', port: 5432, replica: { host: 'r1' } },
    paths: { dir: ['/a', '/b'] },
  });
});

test('parse: errors name the line', () => {
  assert.throws(() => ini.parse('a = 1\n\nbroken\n'), (e) => e instanceof SyntaxError && /line 3/.test(e.message));
});

test('parse: later keys win, sections merge', () => {
  assert.deepEqual(ini.parse('[s]\na=1\n[t]\nb=2\n[s]\na=3\nc=4'), { s: { a: 3, c: 4 }, t: { b: 2 } });
});

test('stringifySection', () => {
  assert.deepEqual(ini.stringifySection({ a: 1, list: ['x', 2], nested: { no: 1 }, s: 'a b' }), ['a = 1', 'list[] = x', 'list[] = 2', 's = a b']);
});

test('stringify nests sections depth first and skips empty ones', () => {
  const text = ini.stringify({ top: true, a: { b: { c: 1 } }, d: { e: 'x', f: { g: '1' } } });
  assert.equal(text, 'top = true\n\n[a.b]\nc = 1\n\n[d]\ne = x\n\n[d.f]\ng = "1"\n');
});

test('round trip', () => {
  const value = { name: 'x = y', n: -2.5, on: false, tags: ['1', 'two', 'true'], s: { t: { u: ' spaced ', list: [1, 2] } } };
  assert.deepEqual(ini.parse(ini.stringify(value)), value);
});
