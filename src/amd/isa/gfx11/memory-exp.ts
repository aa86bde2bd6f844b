/**
 * EXP codec, a factory over the per-generation layout (data from gen-memory.ts's probes).
 * GFX11: word 0 en[3:0] target[9:4] done[11] row_en[13] prefix[31:26]=0b111110 (other bits
 * ignored); GFX9/GFX10: compr[10] and vm[12] instead of row_en, prefix 0b110001 (GFX9) or
 * 0b111110 (GFX10). Word 1: vsrc0..3 in bytes 0..3. A disabled channel prints as `off`.
 * Compressed (compr): two f16 channels per VGPR, channels 0/1 from vsrc0 and 2/3 from vsrc1;
 * LLVM prints channel c as vsrc(c >> 1) and its assembler takes the sources written at positions
 * 0 and 2 (enabling channels 0-1 and 2-3), dropping positions 1 and 3.
 * Target names (mrt0..7, mrtz, null, pos0..4, prim, param0..31, dual_src_blend0/1,
 * invalid_target_N) come from each target's exp.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { EXP_TARGETS } from './exp.gen.js';
import { parseMods, parseVgpr, splitLine, word } from './memory-common.js';

export interface ExpLayout {
  readonly codec: string;
  readonly prefix: number;
  readonly targets: readonly string[];
  /** GFX9/GFX10: compr[10] and vm[12]; GFX11: row_en[13]. */
  readonly legacy: boolean;
}

export function makeExpCodec(L: ExpLayout): Codec {
  const byName = new Map<string, number>();
  L.targets.forEach((n, i) => { if (n !== '?') byName.set(n, i); });
  const flags = L.legacy ? ['done', 'compr', 'vm'] : ['done', 'row_en'];
  return {
    name: L.codec,
    matches: (w0) => w0 >>> 26 === L.prefix,
    decode(words, index, pc): Instruction {
      const w0 = word(words, index, 0, pc);
      const w1 = word(words, index, 1, pc);
      const target = (w0 >>> 4) & 0x3f;
      if (L.targets[target] === '?') throw new DecodeError(pc, [w0, w1], `invalid export target ${target}`);
      const fields: Record<string, number> = {
        en: w0 & 0xf, target, done: (w0 >>> 11) & 1,
        vsrc0: w1 & 0xff, vsrc1: (w1 >>> 8) & 0xff, vsrc2: (w1 >>> 16) & 0xff, vsrc3: w1 >>> 24,
      };
      if (L.legacy) {
        fields.compr = (w0 >>> 10) & 1;
        fields.vm = (w0 >>> 12) & 1;
      } else fields.rowEn = (w0 >>> 13) & 1;
      return { encoding: 'EXP', opcode: 0, mnemonic: 'exp', size: 8, words: [w0, w1], fields, literal: undefined, variant: '', info: null };
    },
    print(inst): string {
      const f = inst.fields;
      const srcs = [0, 1, 2, 3].map((i) => ((f.en! >> i) & 1 ? `v${f[`vsrc${f.compr ? i >> 1 : i}`]}` : 'off'));
      let s = `exp ${L.targets[f.target!]} ${srcs.join(', ')}`;
      if (f.done) s += ' done';
      if (f.compr) s += ' compr';
      if (f.vm) s += ' vm';
      if (f.rowEn) s += ' row_en';
      return s;
    },
    assemble(l: AsmLine): number[] | null {
      if (l.mnemonic !== 'exp') return null;
      const { ops, mods } = splitLine(l.rest);
      if (ops.length !== 4) throw new AsmError(l.line, `exp takes a target and 4 sources`);
      const first = ops[0]!.trim().split(/\s+/);
      if (first.length !== 2) throw new AsmError(l.line, `exp needs a target before its first source`);
      const target = byName.get(first[0]!.toLowerCase());
      if (target === undefined || /^invalid_target/.test(first[0]!)) throw new AsmError(l.line, `invalid export target '${first[0]}'`);
      ops[0] = first[1]!;
      const m = parseMods(l, mods, flags, []);
      const compr = m.flags.has('compr');
      let en = 0;
      let w1 = 0;
      ops.forEach((t, i) => {
        if (t.trim().toLowerCase() === 'off') return;
        const r = parseVgpr(l, t, 1);
        if (!compr) {
          en |= 1 << i;
          w1 |= r << (8 * i);
        } else if ((i & 1) === 0) {
          en |= 3 << i;
          w1 |= r << (4 * i);
        }
      });
      let w0 = (L.prefix << 26) | (m.flags.has('done') ? 1 << 11 : 0) | (target << 4) | en;
      if (m.flags.has('row_en')) w0 |= 1 << 13;
      if (compr) w0 |= 1 << 10;
      if (m.flags.has('vm')) w0 |= 1 << 12;
      return [w0 >>> 0, w1 >>> 0];
    },
  };
}

export const expCodec: Codec = makeExpCodec({ codec: 'EXP', prefix: 0b111110, targets: EXP_TARGETS, legacy: false });
