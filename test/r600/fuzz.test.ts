/**
 * Fuzzing (seeded, deterministic): random CF/ALU/fetch words never crash the decoder, the printer,
 * the assembler (which may only reject with an InputError) or the executor (which may only report
 * diagnostics, or reject a malformed program with an InputError), including targeted groups of the
 * fp64 trans, interpolation and LDS_WRITE_REL ops and the newer texture instructions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { InputError } from '../../src/core/errors.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { assembleAlu, assembleCf } from '../../src/r600/isa/asm.js';
import { decodeAlu, decodeCf, decodeFetch, decodeProgram, type R600Gen } from '../../src/r600/isa/decode.js';
import { printAlu, printCf, printFetch } from '../../src/r600/isa/print.js';
import { vtxName, type R600Object } from '../../src/r600/isa/object.js';
import { runR600 } from '../../src/r600/wave/dispatch.js';
import { ALU_OPS, CF_OPS } from '../../src/r600/isa/opcodes.gen.js';
import { encodeTexResource, encodeTexSampler } from '../../src/r600/exec/tex.js';
import { runAsm } from './helpers.js';

const GENS: R600Gen[] = ['evergreen', 'cayman'];
const err = (m: string): never => {
  throw new InputError(m);
};

test('random words decode and print; printed ALU/CF text re-assembles to text that prints the same', () => {
  const r = mulberry32(600);
  const w = (): number => Math.floor(r() * 4294967296) >>> 0;
  let reassembled = 0;
  for (let i = 0; i < 20000; i++) {
    const gen = GENS[i & 1]!;
    const a = decodeAlu(gen, 0, w(), w());
    const t = printAlu(a);
    const c = decodeCf(gen, 0, w(), w());
    const ct = printCf(c, false, gen);
    printFetch(decodeFetch(0, w(), w(), w(), w()), vtxName);
    for (const [text, asm, dec, pr] of [
      [t, (s: string) => assembleAlu(gen, s, err), (x: number, y: number) => decodeAlu(gen, 0, x, y), printAlu],
      [ct, (s: string) => assembleCf(gen, s, err), (x: number, y: number) => decodeCf(gen, 0, x, y), (d: ReturnType<typeof decodeCf>) => printCf(d, false, gen)],
    ] as const) {
      try {
        const [x, y] = asm(text);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        assert.equal((pr as any)(dec(x, y)), text, `re-assembled text differs for '${text}'`);
        reassembled++;
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
      }
    }
  }
  assert.ok(reassembled > 10000, `only ${reassembled} of 40000 printed words re-assembled`);
});

test('random programs never crash the executor', () => {
  const r = mulberry32(601);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const cfCodes = CF_OPS.filter((o) => !o.alu && o.codes[2] >= 0 && o.codes[2] < 0x40).map((o) => o.codes[2]);
  let ran = 0;
  for (let i = 0; i < 300; i++) {
    const gen: R600Gen = pick(GENS);
    const nCf = 2 + Math.floor(r() * 8);
    const clauseAt = nCf + 2;
    const nAlu = 1 + Math.floor(r() * 12);
    const words = new Uint32Array((clauseAt + nAlu + 8) * 2);
    for (let k = 0; k < nCf - 1; k++) {
      const kind = r();
      if (kind < 0.4) {
        // ALU clause over the random ALU words (count may overrun: that is an InputError).
        const code = 8 + Math.floor(r() * 8);
        words[2 * k] = (clauseAt | (Math.floor(r() * 3) << 30)) >>> 0;
        words[2 * k + 1] = ((Math.floor(r() * nAlu) << 18) | (code << 26) | (1 << 31)) >>> 0;
      } else {
        const code = pick(cfCodes);
        words[2 * k] = Math.floor(r() * (nCf + 2));
        words[2 * k + 1] = ((Math.floor(r() * 4)) | (Math.floor(r() * 4) << 8) | (code << 22) | (r() < 0.2 ? 1 << 30 : 0) | (1 << 31)) >>> 0;
      }
    }
    words[2 * (nCf - 1) + 1] = gen === 'cayman' ? ((0x20 << 22) | (1 << 31)) >>> 0 : ((1 << 21) | (1 << 31)) >>> 0;
    for (let k = 0; k < nAlu + 8; k++) {
      words[2 * (clauseAt + k)] = (Math.floor(r() * 4294967296) | (r() < 0.5 ? 1 << 31 : 0)) >>> 0;
      words[2 * (clauseAt + k) + 1] = Math.floor(r() * 4294967296) >>> 0;
    }
    let program;
    try {
      program = decodeProgram(gen, words, 'fuzz');
    } catch (e) {
      if (e instanceof InputError) continue;
      throw e;
    }
    const object: R600Object = { mcpu: 'fuzz', gen, text: new Uint8Array(words.buffer), kernels: [{ name: 'f', offset: 0, program, relocs: new Map() }], dataSymbols: new Map(), config: [] };
    const diag = new Diagnostics({ limit: 50 });
    runR600({ object, kernel: object.kernels[0]!, grid: [64, 1, 1], block: [64, 1, 1], args: new Uint8Array(0), global: new Uint8Array(1024), diag, maxInstructions: 2000, stackSize: 4 });
    ran++;
  }
  assert.ok(ran > 50, `only ${ran} random programs decoded`);
});

test('random groups of the fp64 trans, interpolation and LDS_WRITE_REL ops and random texture words of the newer TEX ops never crash the executor', () => {
  const r = mulberry32(602);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const int = (n: number): number => Math.floor(r() * n);
  const alu = ['RECIP_64', 'RECIP_CLAMPED_64', 'RECIPSQRT_64', 'RECIPSQRT_CLAMPED_64', 'SQRT_64', 'INTERP_XY', 'INTERP_ZW', 'INTERP_X', 'INTERP_Z', 'INTERP_LOAD_P0', 'INTERP_LOAD_P10', 'INTERP_LOAD_P20', 'ADD_64'];
  const srcOf = (): string => pick([() => `T${int(4)}.${pick(['X', 'Y', 'Z', 'W'])}`, () => `Param${int(34)}.${pick(['X', 'Y', 'Z', 'W'])}`, () => pick(['0.5', '1.0', '-1', '0.0']), () => `PV.${pick(['X', 'Y', 'Z', 'W'])}`])();
  const tex = ['SAMPLE_C_L', 'SAMPLE_C_LB', 'GATHER4_C', 'GATHER4_O', 'GATHER4_C_O', 'GET_LOD', 'SET_TEXTURE_OFFSETS', 'SAMPLE_C_G_LB', 'GET_NUMBER_OF_SAMPLES'];
  let ran = 0;
  for (let i = 0; i < 200; i++) {
    const gen = pick(GENS);
    // Setup: random bit patterns in T0..T3 (one MOV + literal per group).
    const setup: string[] = [];
    for (let k = 0; k < 4; k++) setup.push(`  MOV * T${int(4)}.${pick(['X', 'Y', 'Z', 'W'])}, literal.x,`, `${Math.floor(r() * 4294967296) | 0}(0), 0(0)`);
    const body: string[] = [];
    for (let g = 0; g < 1 + int(4); g++) {
      const n = 1 + int(4);
      for (let k = 0; k < n; k++) {
        const op = pick(alu);
        const info = ALU_OPS.find((o) => o.name === op)!;
        const srcs = Array.from({ length: info.srcs }, srcOf).join(', ');
        body.push(`  ${op}${k === n - 1 ? ' *' : ''} T${4 + int(3)}.${'XYZW'[gen === 'cayman' ? k : int(4)]}${r() < 0.2 ? ' (MASKED)' : ''}, ${srcs},`);
      }
    }
    if (r() < 0.5) body.push(`  LDS_WRITE_REL * T${int(4)}.X, T${int(4)}.Y, T${int(4)}.Z, OFS:${int(64)}`);
    const aluSlots = setup.length + body.length;
    const texLines = Array.from({ length: 1 + int(4) }, () => `  TEX_${pick(tex)} T${4 + int(4)}.XYZW, T${int(4)}.${pick(['XYZW', 'XZZZ', 'WZYX'])} RID:${int(3)} SID:${int(2)} CT:${pick(['NNNN', 'UUUU', 'NNUN'])}${r() < 0.3 ? ` OX:${int(8) - 4}` : ''}${r() < 0.3 ? ` LB:${int(16) - 8}` : ''}`);
    const aluAt = 4 + 2 * texLines.length;
    const src = [`ALU ${aluSlots - 1}, @${aluAt}, KC0[], KC1[]`, `TEX ${texLines.length - 1} @4`, 'CF_END', 'PAD', 'Fetch clause starting at 4:', ...texLines, `ALU clause starting at ${aluAt}:`, ...setup, ...body].join('\n');
    const global = new Uint8Array(8192);
    const textures = new Map([[0, encodeTexResource({ width: 1 + int(16), height: 1 + int(16), depth: 1 + int(3), base: 1024, mipBase: 2048, format: pick([0x0e, 0x1a, 0x23]), lastLevel: int(3), dim: int(8) })], [1, encodeTexResource({ width: 8, height: 8, base: 1024, format: 0x0e })]]);
    const samplers = new Map([[0, encodeTexSampler({ clamp: [int(8), int(8), int(8)], magFilter: int(2), minFilter: int(2), mipFilter: int(3), compare: int(8), maxLod: int(16), lodBias: r() * 4 - 2 })]]);
    try {
      runAsm(src, { gen, mcpu: gen === 'cayman' ? 'cayman' : pick(['cypress', 'juniper']), global, textures, samplers, interpParams: r() < 0.8 ? Array.from({ length: 12 * (1 + int(4)) }, () => r() * 8 - 4) : undefined, maxInstructions: 2000 });
      ran++;
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
    }
  }
  assert.ok(ran > 100, `only ${ran} of 200 random programs ran`);
});
