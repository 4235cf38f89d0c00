import assert from 'node:assert/strict';
import test from 'node:test';
import * as args from '../src/args.js';
import * as cli from '../src/cli.js';

const files = { 'a.txt': 'one two\nthree\n', 'b.txt': 'héllo\n' };
const io = {
  readFile: (p) => {
    if (!(p in files)) throw new Error('ENOENT');
    return Buffer.from(files[p], 'utf8');
  },
  stdin: () => Buffer.from('x y z', 'utf8'),
};

test('parseArgs: defaults, order and --', () => {
  assert.deepEqual(args.parseArgs([]), { fields: ['lines', 'words', 'bytes'], files: [] });
  assert.deepEqual(args.parseArgs(['-c', '-wl', 'f']), { fields: ['lines', 'words', 'bytes'], files: ['f'] });
  assert.deepEqual(args.parseArgs(['-m', '--', '-l', '-']), { fields: ['chars'], files: ['-l', '-'] });
  assert.throws(() => args.parseArgs(['-lx']), (e) => e.invalidOption === 'x');
});

test('one file', () => {
  assert.deepEqual(cli.run(['a.txt'], io), { stdout: ' 2  3 14 a.txt\n', stderr: '', code: 0 });
});

test('several files print a total', () => {
  const out = cli.run(['-lc', 'a.txt', 'b.txt'], io);
  assert.equal(out.stdout, ' 2 14 a.txt\n 1  7 b.txt\n 3 21 total\n');
});

test('characters versus bytes', () => {
  assert.equal(cli.run(['-mc', 'b.txt'], io).stdout, '6 7 b.txt\n');
});

test('standard input via -', () => {
  assert.equal(cli.run(['-w', '-'], io).stdout, '3\n');
});

test('a missing file is reported and the others counted', () => {
  const out = cli.run(['-l', 'nope.txt', 'a.txt'], io);
  assert.deepEqual(out, { stdout: '2 a.txt\n2 total\n', stderr: 'wc-mini: nope.txt: No such file or directory\n', code: 1 });
});

test('an invalid option exits 2', () => {
  assert.deepEqual(cli.run(['-q', 'a.txt'], io), { stdout: '', stderr: "wc-mini: invalid option -- 'q'\n", code: 2 });
});
