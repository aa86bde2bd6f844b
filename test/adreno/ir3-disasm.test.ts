/**
 * ir3 disassembler against Mesa's own output: the compiler's listings of the ir3 corpus
 * (../shared/ir3-corpus) and cffdump's shader listings in the reference logs of the fd-clouds
 * (a630) and glxgears (a420) captures; plus fuzzing and bad input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CORPUS, corpus, words } from './ir3-corpus.js';
import { join } from 'node:path';
import { disasmIr3, disasmInstr } from '../../src/adreno/ir3/disasm.js';
import { InputError } from '../../src/core/errors.js';
import { parseRd, type RdBuffer } from '../../src/formats/rd.js';

const SHARED = join(import.meta.dirname, '../../../../shared');
const CAPS = join(SHARED, 'adreno-captures');

function compare(exp: readonly string[], got: readonly string[]): { good: number; first: string } {
  let good = 0;
  let first = '';
  for (let i = 0; i < Math.max(exp.length, got.length); i++) {
    if (exp[i] === got[i]) good++;
    else if (!first) first = `line ${i + 1}: expected ${JSON.stringify(exp[i])}, got ${JSON.stringify(got[i])}`;
  }
  return { good, first };
}

test('ir3 corpus: every listing line equals Mesa 23.3.6 ir3_compiler output', (t) => {
  if (!existsSync(CORPUS)) return t.skip('../shared/ir3-corpus is absent');
  const report: string[] = [];
  let total = 0;
  let matched = 0;
  for (const c of corpus()) {
    const got = disasmIr3(c.bin.subarray(0, c.sizedwords), { gpuId: c.gpuId });
    const r = compare(c.lines, got);
    total += c.lines.length;
    matched += r.good;
    if (r.good !== c.lines.length || got.length !== c.lines.length) report.push(`${c.name}: ${r.good}/${c.lines.length} ${r.first}`);
  }
  assert.deepEqual(report, [], `matched ${matched}/${total} lines`);
  t.diagnostic(`corpus: ${matched}/${total} lines`);
});

/** The capture's buffers (the logs decode its first submit: the first copy of a buffer is the one). */
function captureBuffers(file: string): { buffers: RdBuffer[]; gpuId: number } {
  const rd = parseRd(new Uint8Array(readFileSync(file)));
  return { buffers: rd.buffers, gpuId: rd.gpuId ?? 0 };
}

function read(buffers: readonly RdBuffer[], addr: number, bytes: number): Uint32Array {
  for (const b of buffers) {
    if (b.data && addr >= b.iova && addr + bytes <= b.iova + b.data.length) return words(b.data.subarray(addr - b.iova, addr - b.iova + bytes));
  }
  throw new Error(`no buffer holds 0x${addr.toString(16)}+${bytes}`);
}

/**
 * cffdump's listings in a log: each run of `:cat:nnnn:cccc[...]` lines and its Stats block,
 * with the shader's address and size taken from the lines before it (`base=..., offset=..,
 * size=..` of SP_*_OBJ_START, `EXT_SRC_ADDR` with the NUM_UNIT of CP_LOAD_STATE6, or the
 * packet address after the listing of an inline CP_LOAD_STATE4).
 */
function listings(log: string[]): { at: number; lines: string[]; addr: number; bytes: number }[] {
  const out = [];
  for (let i = 0; i < log.length; i++) {
    if (!/^\t*:\d:\d{4}:\d{4}\[/.test(log[i]!) || (i > 0 && /^\t*:\d:\d{4}:\d{4}\[/.test(log[i - 1]!))) continue;
    const lines: string[] = [];
    let j = i;
    while (j < log.length && /^\t*(:\d:\d{4}:\d{4}\[|Stats:|- shaderdb:)/.test(log[j]!)) lines.push(log[j++]!.replace(/^\t+/, ''));
    let addr = -1;
    let bytes = 0;
    for (let k = i - 1; k >= Math.max(0, i - 40) && addr < 0; k--) {
      const l = log[k]!;
      if (/^\t*(:\d:\d{4}|- shaderdb)/.test(l)) break;
      let m = /base=([0-9a-f]+), offset=(\d+), size=(\d+)/.exec(l);
      if (m) {
        addr = parseInt(m[1]!, 16) + parseInt(m[2]!, 10);
        bytes = parseInt(m[3]!, 10);
        break;
      }
      m = /EXT_SRC_ADDR = 0x([0-9a-f]+) \}/.exec(l);
      const u = /NUM_UNIT = (\d+)/.exec(log[k - 1] ?? '');
      if (m && u) {
        addr = parseInt(m[1]!, 16);
        bytes = parseInt(u[1]!, 10) * 128;
      } else if (/EXT_SRC_ADDR = 0 \}/.test(l)) {
        // Inline CP_LOAD_STATE4: the packet (header, 2 dwords, code) is dumped after the listing.
        const op = /\((\d+) dwords\)/.exec(log[k - 2] ?? '');
        const dump = /^([0-9a-f]+):\t+0000:/.exec(log[j] ?? '');
        if (op && dump) {
          addr = parseInt(dump[1]!, 16) + 12;
          bytes = (parseInt(op[1]!, 10) - 3) * 4;
        }
      }
    }
    out.push({ at: i + 1, lines, addr, bytes });
    i = j;
  }
  return out;
}

for (const [name, gpuFallback] of [
  ['fd-clouds', 630],
  ['glxgears-a420', 420],
] as const) {
  test(`cffdump shader listings of ${name}.log (verbose, Stats)`, (t) => {
    const logFile = join(CAPS, 'reference', `${name}.log`);
    const rdFile = join(CAPS, 'traces', `${name}.rd.gz`);
    if (!existsSync(logFile) || !existsSync(rdFile)) return t.skip('../shared/adreno-captures is absent');
    const { buffers, gpuId } = captureBuffers(rdFile);
    const all = listings(readFileSync(logFile, 'utf8').split('\n'));
    assert.ok(all.length > 0, 'no listings found in the log');
    const report: string[] = [];
    let total = 0;
    let matched = 0;
    for (const l of all) {
      assert.ok(l.addr >= 0, `listing at line ${l.at}: no shader address found`);
      const code = read(buffers, l.addr, l.bytes);
      const got = disasmIr3(code, { gpuId: gpuId || gpuFallback, cffdump: true, verbose: true, stats: true });
      const r = compare(l.lines, got);
      total += l.lines.length;
      matched += r.good;
      if (r.good !== l.lines.length || got.length !== l.lines.length) report.push(`log line ${l.at}: ${r.good}/${l.lines.length} ${r.first}`);
    }
    assert.deepEqual(report, [], `matched ${matched}/${total} lines in ${all.length} listings`);
    t.diagnostic(`${name}: ${all.length} listings, ${matched}/${total} lines`);
  });
}

test('fuzz: random 64-bit words never throw, on every generation', () => {
  let seed = 0x1234567;
  const rnd = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  for (const gpuId of [300, 420, 530, 630, 660, 730]) {
    const w = new Uint32Array(2 * 400);
    for (let i = 0; i < w.length; i++) w[i] = rnd();
    // Bias some toward real categories with mostly-zero operands.
    for (let i = 0; i < w.length; i += 4) w[i + 1] = (w[i + 1]! & 0xe7f00000) >>> 0;
    const lines = disasmIr3(w, { gpuId });
    assert.ok(lines.length >= w.length / 2);
    const cff = disasmIr3(w, { gpuId, cffdump: true, verbose: true, stats: true });
    assert.ok(cff.length > 0);
    for (let i = 0; i < w.length; i += 2) assert.equal(typeof disasmInstr(w[i]!, w[i + 1]!, gpuId), 'string');
  }
});

test('unknown encodings print as Mesa prints them', () => {
  // cat0 opcode 15 with OPC_HI 0 has no bitset.
  const w = [0x00000000, (15 << 23) >>> 0];
  assert.deepEqual(disasmIr3(w, { gpuId: 630 }), ['raw 0x07800000']);
  assert.deepEqual(disasmIr3(w, { gpuId: 630, cffdump: true }), ['no match: 0780000000000000']);
});

test('odd-length or missing-generation input is an InputError', () => {
  assert.throws(() => disasmIr3(new Uint32Array(3), { gpuId: 630 }), InputError);
  assert.throws(() => disasmIr3(new Uint32Array(2), {}), InputError);
});
