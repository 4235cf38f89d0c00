import assert from 'node:assert/strict';
import test from 'node:test';
import * as cli from '../src/cli.js';

test('default counts of standard input', () => {
  const out = cli.run([], { stdin: () => Buffer.from('a b\nc\n'), readFile: () => { throw new Error('no'); } });
  assert.deepEqual(out, { stdout: '2 3 6\n', stderr: '', code: 0 });
});
