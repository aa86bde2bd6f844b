/**
 * `decode --format cffdump` against Mesa's own cffdump unit-test logs (../shared/adreno-captures,
 * compared there with `diff -u`): the share of reference lines reproduced, found by a diff-style
 * alignment (longest common subsequence), not line positions. Each share is a ratchet at the
 * measured figure: all three are at 100%.
 *
 * Shader listings come from the default hook: the ir3 disassembler (src/adreno/ir3) for a3xx and
 * later, the a2xx one (src/adreno/a2xx) for the dEQP a201 capture. All three are at 100%.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { cffdumpRd } from '../../src/adreno/cp/cffdump.js';
import { InputError } from '../../src/core/errors.js';
import { CmdStream, Layout } from '../../src/adreno/cp/builder.js';
import { RdWriter } from '../../src/formats/rd.js';

const DIR = join(process.cwd(), '..', 'shared', 'adreno-captures');

/**
 * Length of the longest common subsequence of two line lists, bit-parallel (Allison-Dix /
 * Crochemore et al.): one bit per line of `b`, one pass of word additions per line of `a`, so
 * O(|a| |b| / 32) word operations whatever the number of differences (Myers' O((N+M)D) took a
 * minute of CPU on the fd-clouds log, whose D is in the thousands).
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const m = b.length;
  const words = (m + 31) >>> 5;
  // Match masks: for each distinct line of b, the bits of the positions where it occurs.
  const masks = new Map<string, Uint32Array>();
  for (let j = 0; j < m; j++) {
    let mk = masks.get(b[j]!);
    if (!mk) masks.set(b[j]!, (mk = new Uint32Array(words)));
    mk[j >>> 5]! |= 1 << (j & 31);
  }
  // V: a one bit for each position of b not yet in the common subsequence.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const line of a) {
    const mk = masks.get(line);
    if (!mk) continue; // no match: V' = (V + 0) | V = V
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w]!;
      const u = vw & mk[w]!;
      const sum = vw + (u >>> 0) + carry; // & gives a signed word: read it unsigned
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (vw & ~mk[w]!);
    }
  }
  let ones = 0;
  for (let j = 0; j < m; j++) ones += (v[j >>> 5]! >>> (j & 31)) & 1;
  return m - ones;
}

/** A line of an ir3 / a2xx shader listing (what the disassembler hook prints). */
const SHADER_LINE = /^\t*(:\d+:\d{4}:\d{4}\[|Stats:$|- shaderdb:|\s{4}[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}\s|[0-9a-f]{2}: [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8}\t|\s{20,}\t)/;

interface Case {
  readonly trace: string;
  readonly log: string;
  readonly frame?: number;
  /** Ratchets: measured share of all reference lines, and of the non-shader-listing lines. */
  readonly share: number;
  readonly nonShader: number;
}

const CASES: Case[] = [
  { trace: 'fd-clouds.rd.gz', log: 'fd-clouds.log', frame: 0, share: 1, nonShader: 1 },
  { trace: 'glxgears-a420.rd.gz', log: 'glxgears-a420.log', frame: 1, share: 1, nonShader: 1 },
  { trace: 'dEQP-GLES2.functional.texture.specification.basic_teximage2d.rgba16f_2d.rd.gz', log: 'dEQP-GLES2.functional.texture.specification.basic_teximage2d.rgba16f_2d.log', share: 1, nonShader: 1 },
];

for (const c of CASES) {
  const trace = join(DIR, 'traces', c.trace);
  const log = join(DIR, 'reference', c.log);
  const have = existsSync(trace) && existsSync(log);
  test(`cffdump ${c.log}: reference lines reproduced`, { skip: have ? false : '../shared/adreno-captures not present' }, () => {
    const ref = readFileSync(log, 'utf8').split('\n');
    if (ref[ref.length - 1] === '') ref.pop();
    const out: string[] = [];
    cffdumpRd(new Uint8Array(readFileSync(trace)), { out: (l) => void out.push(l), once: true, ...(c.frame !== undefined ? { frame: c.frame } : {}) });
    const same = lcsLength(ref, out);
    const refNon = ref.filter((l) => !SHADER_LINE.test(l));
    const outNon = out.filter((l) => !SHADER_LINE.test(l));
    const sameNon = lcsLength(refNon, outNon);
    const share = same / ref.length;
    const shareNon = sameNon / refNon.length;
    const msg = `${c.log}: ${same}/${ref.length} reference lines (${(100 * share).toFixed(2)}%), ` +
      `${sameNon}/${refNon.length} outside shader listings (${(100 * shareNon).toFixed(2)}%), ${out.length - same} extra lines; ` +
      `shader-listing lines in the reference: ${ref.length - refNon.length}`;
    console.log(msg);
    assert.ok(share >= c.share, msg);
    assert.ok(shareNon >= c.nonShader, msg);
  });
}

test('lcsLength agrees with the dynamic programme on seeded random line lists', () => {
  let seed = 23;
  const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
  for (let round = 0; round < 200; round++) {
    const alphabet = 1 + Math.floor(rnd() * 6);
    const list = (): string[] => Array.from({ length: Math.floor(rnd() * 90) }, () => `l${Math.floor(rnd() * alphabet)}`);
    const a = list();
    const b = list();
    const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    assert.equal(lcsLength(a, b), dp[a.length]![b.length]!, `round ${round}: ${a.join(',')} / ${b.join(',')}`);
  }
});

test('cffdump: the shader disassembler hook is called with the shader words and indented', { skip: existsSync(join(DIR, 'traces', 'fd-clouds.rd.gz')) ? false : 'no capture' }, () => {
  const calls: number[] = [];
  const out: string[] = [];
  cffdumpRd(new Uint8Array(readFileSync(join(DIR, 'traces', 'fd-clouds.rd.gz'))), {
    out: (l) => void out.push(l),
    frame: 0,
    once: true,
    shaderDisasm: (w, gpu) => {
      calls.push(gpu);
      return w[1] === 0x03000000 ? ['HOOK end'] : undefined;
    },
  });
  assert.ok(calls.length > 0 && calls.every((g) => g === 630));
  // The first VS object (an `end` shader) is listed at SP_VS_OBJ_START (7 tabs) and at its CP_LOAD_STATE6_GEOM (6 tabs).
  assert.ok(out.includes('\t\t\t\t\t\t\tHOOK end'));
  assert.ok(out.includes('\t\t\t\t\t\tHOOK end'));
});

/** xorshift32, deterministic. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function sampleCapture(): Uint8Array {
  const L = new Layout(0x1_0000_0000);
  const ds = L.place(new CmdStream('a6xx').reg('RB_DEPTH_CNTL', { Z_TEST_ENABLE: true }));
  const ib = L.place(
    new CmdStream('a6xx')
      .reg('RB_BLEND_CNTL', { SAMPLE_MASK: 0xffff })
      .pkt('CP_SET_MARKER', [4])
      .setDrawState([{ groupId: 3, addr: ds.iova, count: ds.sizeDwords }])
      .pkt('CP_DRAW_INDX_OFFSET', [0x24, 1, 3]),
  );
  const w = new RdWriter().gpuId(630);
  for (const b of L.buffers) w.buffer(b.iova, b.data);
  return w.cmdstream(ib.iova, ib.sizeDwords).bytes();
}

test('cffdump: a builder capture decodes with its draw state replayed at the draw', () => {
  const out: string[] = [];
  cffdumpRd(sampleCapture(), { out: (l) => void out.push(l) });
  const i = out.findIndex((l) => l.includes('group_id: 3'));
  const d = out.findIndex((l) => l.includes('opcode: CP_DRAW_INDX_OFFSET'));
  assert.ok(i > 0 && d > i, out.join('\n'));
  assert.ok(out.some((l) => l.includes('RB_DEPTH_CNTL: { Z_TEST_ENABLE')));
  assert.ok(out.includes('\t\tdraw[0] register values'));
});

test('cffdump fuzz: mutated and truncated captures give a decoded stream or one InputError', () => {
  const real = join(DIR, 'traces', 'fd-clouds.rd.gz');
  const base = sampleCapture();
  const seeds: Uint8Array[] = [base];
  if (existsSync(real)) {
    seeds.push(new Uint8Array(gunzipSync(readFileSync(real))));
  }
  const r = rng(0xcffd);
  let decoded = 0;
  let rejected = 0;
  for (let iter = 0; iter < 60; iter++) {
    const src = seeds[iter % seeds.length]!;
    let b = src.slice();
    const kind = iter % 3;
    if (kind === 0) b = b.subarray(0, r() % b.length);
    else {
      const n = 1 + (r() % 64);
      for (let k = 0; k < n; k++) b[r() % b.length] = kind === 1 ? r() & 0xff : 0xff;
    }
    try {
      cffdumpRd(b, { out: () => {}, once: iter % 2 === 0 });
      decoded++;
    } catch (e) {
      assert.ok(e instanceof InputError, `iteration ${iter}: ${(e as Error).stack}`);
      assert.ok(!(e as Error).message.includes('\n'));
      rejected++;
    }
  }
  assert.ok(decoded > 0);
  void rejected;
});

test('cffdump: libwrap captures (0xffffffff padding between sections) decode like unpadded ones', () => {
  const plain = sampleCapture();
  // The first section is RD_GPU_ID (8 + 4 bytes); pad after it as libwrap does.
  const padded = new Uint8Array(plain.length + 8);
  padded.set(plain.subarray(0, 12), 0);
  padded.fill(0xff, 12, 20);
  padded.set(plain.subarray(12), 20);
  const a: string[] = [];
  const b: string[] = [];
  cffdumpRd(plain, { out: (l) => void a.push(l) });
  cffdumpRd(padded, { out: (l) => void b.push(l) });
  assert.deepEqual(b, a);
});

test('cffdump: small captures of every generation decode without error', () => {
  for (const [gen, id, scratch] of [['a3xx', 330, 'CP_SCRATCH_REG0'], ['a4xx', 420, 'CP_SCRATCH[1]'], ['a5xx', 530, 'CP_SCRATCH[5]'], ['a7xx', 740, 'CP_SCRATCH[1]']] as const) {
    const L = new Layout(gen === 'a3xx' || gen === 'a4xx' ? 0x1000_0000 : 0x1_0000_0000);
    const ib2 = L.place(new CmdStream(gen).reg(scratch, 7));
    const ib = L.place(new CmdStream(gen).reg(scratch, 5).indirectBuffer(ib2.iova, ib2.sizeDwords).pkt('CP_NOP', [0x4d455347, 0x6968]));
    const w = new RdWriter().gpuId(id);
    for (const b of L.buffers) w.buffer(b.iova, b.data);
    const out: string[] = [];
    cffdumpRd(w.cmdstream(ib.iova, ib.sizeDwords).bytes(), { out: (l) => void out.push(l) });
    assert.ok(out.includes(`gpu_id: ${id}`), gen);
    assert.ok(out.some((l) => l.includes('write ' + (gen === 'a3xx' ? 'CP_SCRATCH_REG0' : scratch.replace('[1]', '[0x1]').replace('[5]', '[0x5]')))), `${gen}\n${out.join('\n')}`);
    assert.ok(out.includes('### hi'), `${gen}\n${out.join('\n')}`);
  }
});

test('cffdump: a2xx CP_IM_LOAD_IMMEDIATE hands its words and stage to the hook, listed as cffdump indents them', { skip: existsSync(join(DIR, 'traces', 'dEQP-GLES2.functional.texture.specification.basic_teximage2d.rgba16f_2d.rd.gz')) ? false : 'no capture' }, () => {
  const out: string[] = [];
  const stages = new Set<string>();
  cffdumpRd(new Uint8Array(readFileSync(join(DIR, 'traces', 'dEQP-GLES2.functional.texture.specification.basic_teximage2d.rgba16f_2d.rd.gz'))), {
    out: (l) => void out.push(l),
    once: true,
    shaderDisasm: (w, gpu, stage) => {
      stages.add(`${gpu}:${stage}`);
      return [`HOOK ${stage} ${w[0]!.toString(16)}`];
    },
  });
  const i = out.indexOf('\t\t\tvertex shader, start=0000, size=0015');
  assert.ok(i > 0);
  assert.equal(out[i + 1], '\t\t\t\t\tHOOK VS 72003');
  assert.ok(stages.has('201:VS') && stages.has('201:FS'), [...stages].join(' '));
});

/*
 * With a disassembler that prints what Mesa's does (here: the reference's own listings, replayed
 * in order), the whole output is identical to the reference: every listing is asked for at the
 * place cffdump prints one, and indented as it is. What remains is the disassembler itself.
 */
for (const c of CASES) {
  const trace = join(DIR, 'traces', c.trace);
  const log = join(DIR, 'reference', c.log);
  const have = existsSync(trace) && existsSync(log);
  test(`cffdump ${c.log}: identical to the reference given Mesa's shader listings`, { skip: have ? false : '../shared/adreno-captures not present' }, () => {
    const ref = readFileSync(log, 'utf8').split('\n');
    if (ref[ref.length - 1] === '') ref.pop();
    const blocks: string[][] = [];
    let cur: string[] | undefined;
    for (const l of ref) {
      if (SHADER_LINE.test(l)) {
        if (!cur) blocks.push((cur = []));
        cur.push(l);
      } else cur = undefined;
    }
    const listings = blocks.map((b) => {
      const n = Math.min(...b.map((l) => /^\t*/.exec(l)![0].length));
      return b.map((l) => l.slice(n));
    });
    let k = 0;
    const out: string[] = [];
    cffdumpRd(new Uint8Array(readFileSync(trace)), { out: (l) => void out.push(l), once: true, ...(c.frame !== undefined ? { frame: c.frame } : {}), shaderDisasm: () => listings[k++] });
    assert.equal(k, listings.length, 'one disassembler call per listing');
    assert.deepEqual(out, ref);
  });
}
