/**
 * GFX11 EXP codec. Word 0: en[3:0] target[9:4] done[11] row_en[13] prefix[31:26]=0b111110 (other
 * bits ignored); word 1: vsrc0..3 in bytes 0..3. A disabled channel prints as `off`.
 * Target names (mrt0..7, mrtz, pos0..4, prim, dual_src_blend0/1, invalid_target_N) come from exp.gen.ts.
 */
import { AsmError, DecodeError, type AsmLine, type Codec, type Instruction } from '../types.js';
import { EXP_TARGETS } from './exp.gen.js';
import { parseMods, parseVgpr, splitLine, word } from './memory-common.js';

const PREFIX = 0b111110;
const TARGET_BY_NAME = new Map<string, number>();
EXP_TARGETS.forEach((n, i) => { if (n !== '?') TARGET_BY_NAME.set(n, i); });

export const expCodec: Codec = {
  name: 'EXP',
  matches: (w0) => w0 >>> 26 === PREFIX,
  decode(words, index, pc): Instruction {
    const w0 = word(words, index, 0, pc);
    const w1 = word(words, index, 1, pc);
    const target = (w0 >>> 4) & 0x3f;
    if (EXP_TARGETS[target] === '?') throw new DecodeError(pc, [w0, w1], `invalid export target ${target}`);
    const fields = {
      en: w0 & 0xf, target, done: (w0 >>> 11) & 1, rowEn: (w0 >>> 13) & 1,
      vsrc0: w1 & 0xff, vsrc1: (w1 >>> 8) & 0xff, vsrc2: (w1 >>> 16) & 0xff, vsrc3: w1 >>> 24,
    };
    return { encoding: 'EXP', opcode: 0, mnemonic: 'exp', size: 8, words: [w0, w1], fields, literal: undefined, variant: '', info: null };
  },
  print(inst): string {
    const f = inst.fields;
    const srcs = [0, 1, 2, 3].map((i) => ((f.en! >> i) & 1 ? `v${f[`vsrc${i}`]}` : 'off'));
    let s = `exp ${EXP_TARGETS[f.target!]} ${srcs.join(', ')}`;
    if (f.done) s += ' done';
    if (f.rowEn) s += ' row_en';
    return s;
  },
  assemble(l: AsmLine): number[] | null {
    if (l.mnemonic !== 'exp') return null;
    const { ops, mods } = splitLine(l.rest);
    if (ops.length !== 4) throw new AsmError(l.line, `exp takes a target and 4 sources`);
    const first = ops[0]!.trim().split(/\s+/);
    if (first.length !== 2) throw new AsmError(l.line, `exp needs a target before its first source`);
    const target = TARGET_BY_NAME.get(first[0]!.toLowerCase());
    if (target === undefined || /^invalid_target/.test(first[0]!)) throw new AsmError(l.line, `invalid export target '${first[0]}'`);
    ops[0] = first[1]!;
    let en = 0;
    let w1 = 0;
    ops.forEach((t, i) => {
      if (t.trim().toLowerCase() === 'off') return;
      en |= 1 << i;
      w1 |= parseVgpr(l, t, 1) << (8 * i);
    });
    const m = parseMods(l, mods, ['done', 'row_en'], []);
    const w0 = (PREFIX << 26) | (m.flags.has('row_en') ? 1 << 13 : 0) | (m.flags.has('done') ? 1 << 11 : 0) | (target << 4) | en;
    return [w0 >>> 0, w1 >>> 0];
  },
};
