// The CLI's output path (src/cli/main.ts fdWriter): strings written with writeSync, a full
// non-blocking pipe (EAGAIN) handing the rest to Node's stream in order, and a reader that closes
// the pipe early (EPIPE) ending the process quietly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fdWriter } from '../../src/cli/main.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A stand-in for process.stdout: what it was given, in order. */
function fakeStream(): { stream: NodeJS.WriteStream; got: string[]; listeners: string[] } {
  const got: string[] = [];
  const listeners: string[] = [];
  const stream = {
    write: (b: string | Uint8Array) => got.push(typeof b === 'string' ? b : Buffer.from(b).toString('utf8')),
    on: (ev: string) => listeners.push(ev),
  } as unknown as NodeJS.WriteStream;
  return { stream, got, listeners };
}

test('stdout: written whole with writeSync, partial writes continued; EAGAIN hands the rest and all later output to the stream', () => {
  const written: string[] = [];
  let calls = 0;
  let full = false;
  // Writes at most 3 bytes a call; once `full`, the pipe refuses with EAGAIN.
  const write = (_fd: number, b: Uint8Array, off: number): number => {
    calls++;
    if (full) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
    const n = Math.min(3, b.length - off);
    written.push(Buffer.from(b.subarray(off, off + n)).toString('utf8'));
    return n;
  };
  const f = fakeStream();
  let made = 0;
  const out = fdWriter(1, () => (made++, f.stream), write);
  out('hello, ');
  out('wörld\n');
  assert.equal(written.join(''), 'hello, wörld\n', 'every byte, UTF-8, in order');
  assert.equal(made, 0, 'no stream made while writeSync writes');
  assert.ok(calls >= 5);
  full = true;
  out('line two\n');
  out('line three\n');
  assert.equal(made, 1, 'the stream is made once, at the first EAGAIN');
  assert.deepEqual(f.got, ['line two\n', 'line three\n'], 'the refused rest, then everything after it, through the stream');
  assert.deepEqual(f.listeners, ['error'], 'its EPIPE handler is installed');
  const before = calls;
  out('four\n');
  assert.equal(calls, before, 'no writeSync after the hand-over (order kept)');
});

test('stdout: an error other than EAGAIN or EPIPE is thrown', () => {
  const out = fdWriter(1, () => fakeStream().stream, () => {
    throw Object.assign(new Error('EBADF: bad file descriptor, write'), { code: 'EBADF' });
  });
  assert.throws(() => out('x'), /EBADF/);
});

test('stdout: a reader closing the pipe early (gpusim ... | head) ends the run with exit code 0 and nothing on stderr', async () => {
  // ~190 KB of disassembly: more than a pipe holds, so the process is still writing when the pipe closes.
  const child = spawn(process.execPath, [join(ROOT, 'bin/gpusim.cjs'), 'disasm', join(ROOT, 'kernels/bin/gfx1100/f64_transcendental.co')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let first = '';
  child.stdout.once('data', (d: Buffer) => {
    first = d.toString();
    child.stdout.destroy();
  });
  const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
  assert.match(first, /file format elf64-amdgpu/);
  assert.equal(err, '');
  assert.equal(code, 0);
});
