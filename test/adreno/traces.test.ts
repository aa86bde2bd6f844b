import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { RdWriter, parseRd } from '../../src/formats/rd.js';
import { decodeRaw, decodeRd, traceGen } from '../../src/adreno/decode.js';
import { InputError } from '../../src/core/errors.js';
import { gpuRegs, genFromChipId, type Gen } from '../../src/adreno/regs/db.js';

interface Rec {
  level: number;
  kind: string;
  name: string;
  writes?: { reg: string; offset: string; value: string }[];
  payload?: unknown;
}

function decodeJson(bytes: Uint8Array, gen?: Gen): { recs: Rec[]; problems: number; gen: Gen } {
  const out: string[] = [];
  const sum = decodeRd(bytes, { json: true, out: (l) => out.push(l), ...(gen ? { gen } : {}) });
  const recs = out.map((l) => JSON.parse(l) as Rec & { section?: string }).filter((r) => r.section === undefined);
  return { recs, problems: sum.problems.length, gen: sum.gen };
}

/**
 * One capture per generation, made by the builder in that generation's packet format and
 * register space, with the id a real capture carries (RD_GPU_ID for a3xx..a6xx-era kernels,
 * RD_CHIP_ID only for the a7xx KGSL-style id).
 */
function trace(gen: Gen): { bytes: Uint8Array; expect: string[]; regs: [string, number][] } {
  const L = new Layout(gen === 'a3xx' || gen === 'a4xx' ? 0x1000_0000 : 0x1_0000_0000);
  const buf = L.reserve(256, 'data');
  const w = new RdWriter();
  let expect: string[];
  let regs: [string, number][];
  if (gen === 'a3xx') {
    const ib2 = L.place(new CmdStream('a3xx').reg('CP_SCRATCH_REG0', 0x33));
    const ib1 = L.place(
      new CmdStream('a3xx')
        .reg('RB_MODE_CONTROL', { RENDER_MODE: 'RB_RENDERING_PASS', MARB_CACHE_SPLIT_MODE: true })
        .reg('GRAS_CL_CLIP_CNTL', { IJ_PERSP_CENTER: true, CLIP_DISABLE: true })
        .indirectBuffer(ib2.iova, ib2.sizeDwords)
        .pkt('CP_WAIT_FOR_IDLE')
        .raw(0x80000000),
    );
    w.gpuId(330);
    for (const b of L.buffers) w.buffer(b.iova, b.data);
    w.cmdstream(ib1.iova, ib1.sizeDwords);
    expect = ['1:IB1:REG_WRITE', '1:IB1:REG_WRITE', '1:IB1:CP_INDIRECT_BUFFER', '2:IB2:REG_WRITE', '1:IB1:CP_WAIT_FOR_IDLE', '1:IB1:NOP'];
    regs = [['RB_MODE_CONTROL', 0], ['GRAS_CL_CLIP_CNTL', 1], ['CP_SCRATCH_REG0', 3]];
  } else if (gen === 'a4xx') {
    const so = new CmdStream('a4xx').reg('CP_SCRATCH[0]', 0x44);
    const s4 = L.place(so);
    const ib1 = L.place(
      new CmdStream('a4xx')
        .reg('RB_MODE_CONTROL', { WIDTH: 64, HEIGHT: 32 })
        .pkt('CP_SET_DRAW_STATE', [(so.length | (2 << 24)) >>> 0, s4.iova])
        .event('CACHE_FLUSH_TS', buf, 4),
    );
    w.gpuId(420);
    for (const b of L.buffers) w.buffer(b.iova, b.data);
    w.cmdstream(ib1.iova, ib1.sizeDwords);
    expect = ['1:IB1:REG_WRITE', '1:IB1:CP_SET_DRAW_STATE', '2:SDS:REG_WRITE', '1:IB1:CP_EVENT_WRITE'];
    regs = [['RB_MODE_CONTROL', 0], ['CP_SCRATCH[0]', 2]];
  } else {
    const ib2 = L.place(new CmdStream(gen).reg('CP_SCRATCH[1]', 0x55).nop([1]));
    const so = L.place(new CmdStream(gen).reg('RB_DEPTH_CNTL', { Z_TEST_ENABLE: true, Z_WRITE_ENABLE: true }));
    const cs = new CmdStream(gen)
      .reg('RB_BLEND_CNTL', { INDEPENDENT_BLEND: true, SAMPLE_MASK: 0xffff })
      .reg('GRAS_SU_CNTL', { CULL_FRONT: true, LINEHALFWIDTH: 0.5 * 4 })
      .indirectBuffer(ib2.iova, ib2.sizeDwords)
      .setDrawState([{ groupId: 1, addr: so.iova, count: so.sizeDwords }])
      .memWrite(buf, [1, 2]);
    if (gen === 'a7xx') cs.threadControl('BR').event7('CACHE_FLUSH_TS', { src: 'EV_WRITE_TIMESTAMP_SUM', addr: buf + 16 });
    else cs.event('CACHE_FLUSH_TS', buf + 16, 7);
    const ib1 = L.place(cs);
    if (gen === 'a5xx') w.gpuId(530);
    else if (gen === 'a6xx') w.gpuId(0).chipId(0x06030001);
    else w.chipId(0x43050a01, 0xffff);
    for (const b of L.buffers) w.buffer(b.iova, b.data);
    w.cmdstream(ib1.iova, ib1.sizeDwords);
    expect = ['1:IB1:REG_WRITE', '1:IB1:REG_WRITE', '1:IB1:CP_INDIRECT_BUFFER', '2:IB2:REG_WRITE', '2:IB2:CP_NOP', '1:IB1:CP_SET_DRAW_STATE', '2:SDS:REG_WRITE', '1:IB1:CP_MEM_WRITE'];
    expect.push(...(gen === 'a7xx' ? ['1:IB1:CP_THREAD_CONTROL', '1:IB1:CP_EVENT_WRITE7'] : ['1:IB1:CP_EVENT_WRITE']));
    regs = [['RB_BLEND_CNTL', 0], ['GRAS_SU_CNTL', 1], ['CP_SCRATCH[1]', 3], ['RB_DEPTH_CNTL', 6]];
  }
  return { bytes: w.bytes(true), expect, regs };
}

const GENS: Gen[] = ['a3xx', 'a4xx', 'a5xx', 'a6xx', 'a7xx'];

test('builder traces for a3xx, a4xx, a5xx, a6xx and a7xx ids decode back with that generation\'s names', () => {
  for (const gen of GENS) {
    const t = trace(gen);
    const f = parseRd(t.bytes);
    assert.equal(traceGen(f), gen, `${gen}: generation from the trace's id`);
    const { recs, problems } = decodeJson(t.bytes);
    assert.equal(problems, 0, gen);
    assert.deepEqual(recs.map((r) => `${r.level}:${r.kind}:${r.name}`), t.expect, gen);
    const R = gpuRegs(gen);
    for (const [name, i] of t.regs) {
      const w = recs[i]!.writes![0]!;
      assert.equal(parseInt(w.offset, 16), R.reg(name), `${gen} ${name} offset`);
      assert.equal(w.reg.replace(/\[0x(\d+)\]/, '[$1]').replace(/\.REG$/, ''), name, `${gen} ${name}`);
    }
  }
  // Bitfields come out field by field.
  const text = (gen: Gen): string => {
    const out: string[] = [];
    decodeRd(trace(gen).bytes, { out: (l) => out.push(l) });
    return out.join('\n');
  };
  assert.match(text('a3xx'), /RB_MODE_CONTROL: \{ RENDER_MODE = RB_RENDERING_PASS \| MRT = 0 \| MARB_CACHE_SPLIT_MODE \}/);
  assert.match(text('a3xx'), /GRAS_CL_CLIP_CNTL: \{ IJ_PERSP_CENTER \| CLIP_DISABLE \| NUM_USER_CLIP_PLANES = 0 \}/);
  assert.match(text('a4xx'), /RB_MODE_CONTROL: \{ WIDTH = 64 \| HEIGHT = 32[^}]*\}/);
  for (const g of ['a5xx', 'a6xx', 'a7xx'] as const) {
    assert.match(text(g), /RB_DEPTH_CNTL: \{ Z_TEST_ENABLE \| Z_WRITE_ENABLE/, g);
    assert.match(text(g), /INDEPENDENT_BLEND/, g);
  }
  assert.match(text('a7xx'), /THREAD = CP_SET_THREAD_BR/);
  assert.match(text('a7xx'), /WRITE_SRC = EV_WRITE_TIMESTAMP_SUM/);
});

test('mixed-generation register spaces: a stream decoded with another generation shows other or raw names, never fails', () => {
  const a5 = new CmdStream('a5xx').reg('RB_BLEND_CNTL', 1).reg('CP_SCRATCH[0]', 2).bytes();
  const names = (g: Gen): string[] => {
    const out: string[] = [];
    decodeRaw(a5, g, { json: true, out: (l) => out.push(l) });
    return out.map((l) => (JSON.parse(l) as Rec).writes![0]!.reg);
  };
  assert.deepEqual(names('a5xx'), ['RB_BLEND_CNTL', 'CP_SCRATCH[0].REG']);
  const as6 = names('a6xx');
  assert.equal(as6.length, 2);
  assert.notEqual(as6[0], 'RB_BLEND_CNTL'); // 0xe1a9 is no a6xx RB_BLEND_CNTL
  // type-0/3 packets in an a6xx stream are malformed (no valid header), reported, not thrown.
  const a3 = new CmdStream('a3xx').reg('CP_SCRATCH_REG0', 5).pkt('CP_NOP', [0]).bytes();
  const s = decodeRaw(a3, 'a6xx', { out: () => {} });
  assert.ok(s.problems.length >= 1);
  // a7xx-only opcodes decoded as a6xx are unknown packets, shown raw.
  const out: string[] = [];
  const s7 = decodeRaw(new CmdStream('a7xx').threadControl('BR').bytes(), 'a6xx', { out: (l) => out.push(l) });
  assert.equal(s7.packets, 1);
  assert.match(out.join('\n'), /0x17|UNKNOWN|unknown/);
  assert.equal(genFromChipId(0x43051401, 0), 'a7xx');
  assert.equal(genFromChipId(0x07030001, 0), 'a7xx');
});

test('every generation\'s trace: truncations and corruptions give warnings or one-line errors, never a crash or a hang', () => {
  let seed = 77;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
  for (const gen of GENS) {
    const { bytes } = trace(gen);
    const raw = new Uint8Array(0);
    void raw;
    const plain = parseRd(bytes).sections.length > 0 ? decompress(bytes) : bytes;
    for (let k = 0; k < 60; k++) {
      let b = plain.slice(0, rnd() % (plain.length + 1));
      if (k % 3 === 0) {
        b = plain.slice();
        for (let j = 0; j < 10; j++) b[rnd() % b.length] = rnd() & 0xff;
      }
      if (k % 5 === 0) b = bytes.slice(0, rnd() % bytes.length); // truncated gzip
      try {
        decodeRd(b, { out: () => {} });
        decodeRd(b, { out: () => {}, json: true });
      } catch (e) {
        assert.ok(e instanceof InputError, `${gen} #${k}: ${String(e)}`);
      }
    }
  }
});

import { gunzipSync } from 'node:zlib';
function decompress(b: Uint8Array): Uint8Array {
  return b[0] === 0x1f && b[1] === 0x8b ? new Uint8Array(gunzipSync(b)) : b;
}
