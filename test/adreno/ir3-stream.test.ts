/**
 * Compute dispatch the way the driver does it: the command stream built from each corpus
 * manifest decodes cleanly (cffdump format, every packet and field known, the shader listing equal
 * to the compiler's), programs what the manifest says, and runs again from an .rd capture through
 * `adreno run`, where a capture without a buffer's memory says what is missing instead of running.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { decodeRd } from '../../src/adreno/decode.js';
import { runRd } from '../../src/adreno/run.js';
import { readIr3Manifest, runIr3Dispatch } from '../../src/adreno/sp/dispatch.js';
import { dispatchRd, type BuiltDispatch } from '../../src/adreno/sp/driver.js';
import { RdWriter } from '../../src/formats/rd.js';
import { CORPUS } from './ir3-corpus.js';

const manifests = (): string[] => (existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => /\.a\d+\.json$/.test(f)).sort() : []);

function build(file: string): { m: ReturnType<typeof readIr3Manifest>; built: BuiltDispatch; rd: Uint8Array; out: Map<string, Uint8Array> } {
  const m = readIr3Manifest(join(CORPUS, file));
  let rd: Uint8Array | undefined;
  const r = runIr3Dispatch(m, { onBuilt: (b) => (rd = dispatchRd(b, m.gpuId)) });
  return { m, built: r.built, rd: rd!, out: r.buffers };
}

test('every corpus dispatch stream decodes cleanly and programs the manifest', (t) => {
  const files = manifests();
  if (!files.length) return t.skip('../shared/ir3-corpus is absent');
  for (const f of files) {
    const { m, rd } = build(f);
    const lines: string[] = [];
    const s = cffdumpRd(rd, { out: (l) => lines.push(l) });
    assert.deepEqual(s.problems, [], `${f}: cffdump problems`);
    const text = lines.join('\n');
    const reg = (c: number): string => `r${c >> 2}.${'xyzw'[c & 3]}`;
    assert.match(text, new RegExp(`LOCALIDREGID = ${reg(m.localIdReg).replace('.', '\\.')}`), f);
    assert.match(text, new RegExp(`WGIDCONSTID = ${reg(m.wgIdReg).replace('.', '\\.')}`), f);
    assert.match(text, new RegExp(`THREADSIZE = THREAD${m.waveSize} .*FULLREGFOOTPRINT = ${m.fullRegs} `), f);
    assert.match(text, new RegExp(`LOCALSIZEX = ${m.block[0] - 1} \\| LOCALSIZEY = ${m.block[1] - 1} \\| LOCALSIZEZ = ${m.block[2] - 1}`), f);
    assert.match(text, new RegExp(`NGROUPS_X = ${m.groups[0]} }\\s+\\{ NGROUPS_Y = ${m.groups[1]} }`), f);
    for (const st of ['ST6_SHADER | STATE_SRC = SS6_INDIRECT', ...(m.constlen ? ['ST6_CONSTANTS | STATE_SRC = SS6_DIRECT'] : [])]) assert.ok(text.includes(`STATE_TYPE = ${st} | STATE_BLOCK = SB6_CS_SHADER`), `${f}: ${st}`);
    if (m.buffers.some((b) => b.ibo !== undefined)) assert.ok(text.includes('STATE_TYPE = ST6_IBO | STATE_SRC = SS6_INDIRECT | STATE_BLOCK = SB6_CS_SHADER'), f);
    for (const b of m.buffers.filter((x) => x.kind === 'image')) assert.ok(text.includes(`WIDTH = ${b.width} | HEIGHT = ${b.count / b.width!} }`), `${f}: image ${b.name}`);
    // The shader listing under SP_CS_OBJ_START is the compiler's (its first instruction line).
    const listing = readFileSync(join(CORPUS, `out/${f.replace(/\.json$/, '')}.ir3.txt`), 'utf8').split('\n');
    const first = listing.find((l) => /^\S/.test(l) && !l.startsWith(';') && !l.startsWith('@'))!;
    assert.ok(text.includes(`] ${first.trim()}`), `${f}: first instruction '${first}'`);
    const d = decodeRd(rd, { out: () => {}, quiet: true });
    assert.deepEqual(d.problems, [], `${f}: decode problems`);
  }
});

test('adreno run: the captured dispatch runs on the SP and leaves the expected bytes in memory', (t) => {
  if (!manifests().length) return t.skip('../shared/ir3-corpus is absent');
  for (const f of ['int_add_sub.a630.json', 'shared_reduce.a660.json', 'image_rw.a730.json', 'ubo_read.a630.json']) {
    const { m, built, rd, out } = build(f);
    const r = runRd(rd);
    assert.deepEqual(r.stops, ['done'], f);
    assert.equal(r.cp.computeRuns.length, 1, f);
    assert.ok(r.cp.computeRuns[0]!.ran, `${f}: ${r.cp.computeRuns[0]!.missing.join('; ')}`);
    assert.deepEqual(r.diag.list.filter((d) => d.severity !== 'info'), [], f);
    for (const name of m.outputs) {
      const seg = built.buffers.get(name)!;
      const got = r.cp.mem.readBytes(seg.base, out.get(name)!.length);
      assert.deepEqual(got, out.get(name), `${f}: ${name}`);
      const e = m.expect[name];
      if (e && e.ulp === 0) assert.deepEqual(got, new Uint8Array(readFileSync(e.file)), `${f}: ${name} expected`);
    }
  }
});

test('adreno run: a capture without a buffer or the shader says what is missing and does not run', (t) => {
  if (!manifests().length) return t.skip('../shared/ir3-corpus is absent');
  const { built, m } = build('int_add_sub.a630.json');
  const outSeg = built.buffers.get(m.outputs[0]!)!;
  const capture = (skip: (label: string) => boolean): Uint8Array => {
    const w = new RdWriter().gpuId(630);
    for (const s of built.segments) if (!skip(s.label)) w.buffer(s.base, s.u8);
    return w.cmdstream(built.streamIova, built.stream.length).bytes();
  };
  const r = runRd(capture((l) => l === outSeg.label));
  const run = r.cp.computeRuns[0]!;
  assert.equal(run.ran, false);
  assert.match(run.missing.join('; '), new RegExp(`IBO \\d+: \\d+ bytes at 0x${outSeg.base.toString(16)} not in memory`));
  assert.deepEqual(r.diag.list.map((d) => `${d.id}:${d.severity}`), ['adreno.cp.cs-not-run:info']);
  const s = runRd(capture((l) => l === 'shader'));
  assert.match(s.cp.computeRuns[0]!.missing.join('; '), /SB6_CS_SHADER ST6_SHADER at 0x[0-9a-f]+ \(\d+ bytes not in memory\)/);
  assert.equal(s.cp.computeRuns[0]!.ran, false);
});
