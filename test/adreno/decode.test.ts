import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { RdWriter, parseRd } from '../../src/formats/rd.js';
import { decodeRaw, decodeRd } from '../../src/adreno/decode.js';
import { InputError } from '../../src/core/errors.js';
import { main } from '../../src/cli/main.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

/** A small capture: IB1 calling an IB2 and a draw-state group, written as an .rd. */
export function sampleTrace(gzip = false): { bytes: Uint8Array; buf: number } {
  const L = new Layout();
  const buf = L.reserve(4096, 'data');
  const ib2 = L.place(new CmdStream().reg('CP_SCRATCH[1]', 7).nop([1, 2]));
  const sds = L.place(new CmdStream().reg('RB_BLEND_CNTL', { ENABLE_BLEND: 1 }));
  const ib1 = L.place(
    new CmdStream()
      .reg('CP_SCRATCH[0]', 0x1234)
      .memWrite(buf, [1, 2, 3])
      .indirectBuffer(ib2.iova, ib2.sizeDwords)
      .setDrawState([{ groupId: 3, addr: sds.iova, count: sds.sizeDwords }])
      .event('CACHE_FLUSH_TS', buf + 64, 5),
  );
  const w = new RdWriter().gpuId(630).cmd('pid: 1 comm: test');
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  w.cmdstream(ib1.iova, ib1.sizeDwords);
  return { bytes: w.bytes(gzip), buf };
}

function records(bytes: Uint8Array): Record<string, unknown>[] {
  const out: string[] = [];
  decodeRd(bytes, { json: true, out: (l) => out.push(l) });
  return out.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r['section'] === undefined);
}

test('JSON mode also reports non-packet sections (process name, shaders)', () => {
  const out: string[] = [];
  const w = new RdWriter().gpuId(630).cmd('pid: 7 comm: deqp');
  w.section(11, new Uint8Array(16));
  decodeRd(w.bytes(), { json: true, out: (l) => out.push(l) });
  assert.deepEqual(out.map((l) => JSON.parse(l) as unknown), [{ section: 'CMD', text: 'pid: 7 comm: deqp' }, { section: 'FRAG_SHADER', size: 16 }]);
});

test('builder .rd decodes back: levels, names, register writes, draw state', () => {
  for (const gz of [false, true]) {
    const recs = records(sampleTrace(gz).bytes);
    const names = recs.map((r) => `${r['level']}:${r['kind']}:${r['name']}`);
    assert.deepEqual(names, [
      '1:IB1:REG_WRITE',
      '1:IB1:CP_MEM_WRITE',
      '1:IB1:CP_INDIRECT_BUFFER',
      '2:IB2:REG_WRITE',
      '2:IB2:CP_NOP',
      '1:IB1:CP_SET_DRAW_STATE',
      '2:SDS:REG_WRITE',
      '1:IB1:CP_EVENT_WRITE',
    ]);
    assert.deepEqual(recs[0]!['writes'], [{ reg: 'CP_SCRATCH[0].REG', offset: '0x883', value: '0x1234', decoded: '4660' }]);
    assert.equal(recs[6]!['group'], 3);
    assert.equal(recs[0]!['submit'], 0);
  }
});

test('text decode shows fields and the trace header', () => {
  const out: string[] = [];
  const s = decodeRd(sampleTrace().bytes, { out: (l) => out.push(l) });
  assert.equal(s.gen, 'a6xx');
  assert.equal(s.problems.length, 0);
  const text = out.join('\n');
  assert.match(text, /gpu: a630 -> a6xx/);
  assert.match(text, /RB_BLEND_CNTL: \{ ENABLE_BLEND = 0x1/);
  assert.match(text, /EVENT = CACHE_FLUSH_TS/);
});

test('rd sections parse: gpu id, buffers, submits', () => {
  const f = parseRd(sampleTrace().bytes);
  assert.equal(f.gpuId, 630);
  assert.equal(f.submits.length, 1);
  assert.equal(f.buffers.length, 4);
  assert.equal(f.submits[0]!.cmd, 'pid: 1 comm: test');
});

test('truncated traces and corrupt gzip: warnings or one-line InputError, never a crash', () => {
  const { bytes } = sampleTrace();
  for (let cut = 8; cut < bytes.length; cut += 37) {
    const s = decodeRd(bytes.subarray(0, cut), { out: () => {} });
    assert.ok(s.packets >= 0);
  }
  assert.throws(() => decodeRd(new Uint8Array([0x1f, 0x8b, 1, 2, 3]), { out: () => {} }), InputError);
  assert.throws(() => decodeRd(new Uint8Array(3), { out: () => {} }), InputError);
});

test('malformed packets are reported with stable ids, clean streams stay quiet', () => {
  const clean = new CmdStream().reg('CP_SCRATCH[0]', 1).nop();
  assert.equal(decodeRaw(clean.bytes(), 'a6xx', { out: () => {} }).problems.length, 0);
  const bad = new CmdStream().raw(0xdeadbeef).raw(0x48088301 ^ (1 << 27), 5).raw(0x703d8005, 0);
  const ids = decodeRaw(bad.bytes(), 'a6xx', { out: () => {} }).problems.map((p) => p.id);
  assert.deepEqual(ids, ['adreno.cp.bad-header', 'adreno.cp.bad-parity', 'adreno.cp.truncated-packet']);
  const ib = new CmdStream().indirectBuffer(0x5000_0000, 4);
  assert.deepEqual(decodeRaw(ib.bytes(), 'a6xx', { out: () => {} }).problems.map((p) => p.id), ['adreno.cp.ib-unmapped']);
});

test('older generations: type-0/3 streams decode with a3xx names', () => {
  const cs = new CmdStream('a3xx').reg('CP_SCRATCH_REG0', 5).pkt('CP_NOP', [0]).raw(0x80000000);
  const out: string[] = [];
  const s = decodeRaw(cs.bytes(), 'a3xx', { out: (l) => out.push(l) });
  assert.equal(s.problems.length, 0);
  assert.match(out.join('\n'), /t0 write CP_SCRATCH_REG0/);
  assert.match(out.join('\n'), /t3 CP_NOP/);
  assert.match(out.join('\n'), /t2 nop/);
});

test('fuzz: random and mutated streams never throw and always terminate', () => {
  let seed = 12345;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  const base = sampleTrace().bytes;
  for (let k = 0; k < 300; k++) {
    const b = base.slice();
    for (let j = 0; j < 8; j++) b[rnd() % b.length] = rnd() & 0xff;
    try {
      decodeRd(b, { out: () => {} });
    } catch (e) {
      assert.ok(e instanceof InputError, String(e));
    }
    const raw = new Uint8Array(256);
    for (let j = 0; j < raw.length; j++) raw[j] = rnd() & 0xff;
    for (const g of ['a3xx', 'a5xx', 'a6xx'] as const) decodeRaw(raw, g, { out: () => {} });
  }
});

test('gpusim adreno decode: exit codes 0 / 1 / 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-adreno-'));
  const good = join(dir, 'good.rd.gz');
  writeFileSync(good, sampleTrace(true).bytes);
  const bad = join(dir, 'bad.bin');
  writeFileSync(bad, new CmdStream().raw(0xdeadbeef).bytes());
  let so = '';
  let se = '';
  const io = { stdout: (s: string) => void (so += s), stderr: (s: string) => void (se += s), isTTY: false };
  assert.equal(await main(['adreno', 'decode', good], io), 0);
  assert.match(so, /CP_MEM_WRITE/);
  assert.equal(await main(['adreno', 'decode', bad], io), 1);
  so = '';
  assert.equal(await main(['adreno', 'decode', good, '--summary'], io), 0);
  assert.match(so, /^a6xx: 1 submit\(s\), 8 packets, 0 problem\(s\)/);
  assert.match(so, /\s+3\s+REG_WRITE/);
  assert.match(so, /\s+1\s+SDS/);
  assert.equal(await main(['adreno', 'decode', join(dir, 'missing.rd')], io), 2);
  assert.equal(await main(['adreno', 'decode', good, '--gen', 'a9xx'], io), 2);
  assert.match(se, /--gen must be one of/);
});

test('decode notes shader loads (CP_LOAD_STATE6) and expands a4xx draw states', () => {
  const L = new Layout();
  const sh = L.place(new Uint32Array(64), 'shader');
  // STATE_TYPE ST6_SHADER(0) | STATE_SRC SS6_INDIRECT(2) | STATE_BLOCK SB6_FS_SHADER(12) | NUM_UNIT 4
  const d0 = (0 << 14) | (2 << 16) | (12 << 18) | (4 << 22);
  const ib = L.place(new CmdStream().pkt('CP_LOAD_STATE6_FRAG', [d0, sh.iova >>> 0, Math.floor(sh.iova / 2 ** 32)]));
  const w = new RdWriter().gpuId(640);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  const out: string[] = [];
  decodeRd(w.cmdstream(ib.iova, ib.sizeDwords).bytes(), { out: (l) => out.push(l) });
  const text = out.join('\n');
  assert.match(text, /STATE_BLOCK = SB6_FS_SHADER/);
  assert.match(text, /load-state: SB6_FS_SHADER ST6_SHADER SS6_INDIRECT 4 unit\(s\) from 0x100000000 \(captured, 256 bytes\) \[shader binary\]/);

  const so = new CmdStream('a4xx').reg('CP_SCRATCH[0]', 1);
  const L4 = new Layout(0x1000);
  const s4 = L4.place(so);
  const top = new CmdStream('a4xx').pkt('CP_SET_DRAW_STATE', [(so.length | (2 << 24)) >>> 0, s4.iova]);
  const t4 = L4.place(top);
  const w4 = new RdWriter().gpuId(430);
  for (const b of L4.buffers) w4.buffer(b.iova, b.data);
  const recs: Record<string, unknown>[] = [];
  decodeRd(w4.cmdstream(t4.iova, t4.sizeDwords).bytes(), { json: true, out: (l) => recs.push(JSON.parse(l) as Record<string, unknown>) });
  assert.deepEqual(recs.map((r) => `${r['kind']}:${r['name']}`), ['IB1:CP_SET_DRAW_STATE', 'SDS:REG_WRITE']);
});
