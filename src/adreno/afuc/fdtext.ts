/**
 * One afuc instruction, or a listing of words, in the text Mesa's isaspec decoder prints for
 * afuc-disasm: field formats, register names, `fxnN`/`lN` branch labels, packet-handler entry
 * points, and the comment afuc-disasm appends to immediates (a GPU register, or the pipe
 * register an `$addr` write selects). Used by the disassembler and the emulator's trace.
 */
import { decode, nopLiteral, type Decoded } from './isa.js';
import { AFUC_ENUMS, type AfucForm } from './afuc.gen.js';
import { controlRegName, gpuRegName, hex3, packetName, pipeRegName, sqeRegName, type AfucChip } from './names.js';

export interface EntryPoint {
  readonly offset: number;
  readonly name: string;
}

const REG = new Map(AFUC_ENUMS['#reg']);
const SPECIAL_SRC = new Map(AFUC_ENUMS['#specialsrc']);
const SPECIAL_DST = new Map(AFUC_ENUMS['#specialdst']);

const signExtend = (v: number, width: number): number => (width >= 32 ? v | 0 : (v << (32 - width)) >> (32 - width));

function template(d: Decoded): string {
  for (const o of d.form.overrides) if (o.when.every(([k, v]) => d.f[k] === v)) return o.template;
  return d.form.template;
}

/** Fields a branch-type placeholder resolves to: [value, width, type, call]. */
function branchField(form: AfucForm, f: Record<string, number>, name: string): [number, number, string, boolean] | undefined {
  const fd = form.fields.find((x) => x[0] === name);
  if (fd && (fd[3] === 'branch' || fd[3] === 'absbranch')) return [f[name]!, fd[2] - fd[1] + 1, fd[3], fd[5]];
  const dv = form.derived.find((x) => x[0] === name);
  if (dv && (dv[2] === 'branch' || dv[2] === 'absbranch')) return [dv[1], 16, dv[2], false];
  return undefined;
}

/** Target of a branch placeholder at `n`, when it lies inside the listing (else undefined). */
function labelTarget(value: number, width: number, type: string, n: number, count: number): number | undefined {
  const t = type === 'branch' ? signExtend(value, width) + n : value;
  return t >= 0 && t < count ? t : undefined;
}

interface Targets {
  branch: Set<number>;
  call: Set<number>;
}

/** One instruction's text as isaspec prints it, plus the annotation afuc-disasm appends. */
function render(d: Decoded, n: number, count: number, chip: AfucChip, targets: Targets): string {
  let immed: number | undefined;
  let shift = 0;
  let dstIsAddr = false;
  const text = template(d).replace(/\{(\w+)\}/g, (_m, name: string) => {
    const br = branchField(d.form, d.f, name);
    if (br) {
      const [v, width, type, call] = br;
      const t = labelTarget(v, width, type, n, count);
      if (t !== undefined) {
        (call ? targets.call : targets.branch).add(t);
        return call ? `fxn${t}` : `l${t}`;
      }
      return String(signExtend(v, width));
    }
    const fd = d.form.fields.find((x) => x[0] === name);
    if (!fd) return '';
    const v = d.f[name]!;
    if (name === 'RIMMED') immed = v;
    else if (name === 'SHIFT') shift = v;
    else if (name === 'DST' && v === 0x1d) dstIsAddr = true;
    switch (fd[3]) {
      case 'bool':
        return fd[4] ? (v ? fd[4] : '') : String(v);
      case '#xmov':
      case '#sds':
        return AFUC_ENUMS[fd[3]]?.find((e) => e[0] === v)?.[1] ?? String(v);
      case '#src':
        return (v >= 0x1c ? SPECIAL_SRC.get(v) : REG.get(v)) ?? String(v);
      case '#dst':
        return (v >= 0x1c ? SPECIAL_DST.get(v) : REG.get(v)) ?? String(v);
      case 'hex':
        return v.toString(16);
      case 'int':
        return String(signExtend(v, fd[2] - fd[1] + 1));
      case '#control-base': {
        if (d.f['PREINCREMENT']) return `0x${v.toString(16)}`;
        const r = controlRegName(v, chip);
        return r ? `@${r}` : hex3(v);
      }
      case '#sqe-base': {
        // The pre-increment form prints a decimal after `0x` (its IMMED is a uint), as isaspec does.
        if (d.f['PREINCREMENT']) return `0x${v}`;
        const r = sqeRegName(v, chip);
        return r ? `%${r}` : hex3(v);
      }
      default:
        return String(v);
    }
  });
  let note = '';
  if (immed !== undefined) {
    let x = shift < 32 ? (immed << shift) >>> 0 : 0;
    if (dstIsAddr && shift >= 16) {
      x = (x & ~0x40000) >>> 0; // bit 18 turns off the address auto-increment
      if ((x & 0xffffff) === 0) {
        const p = pipeRegName(x >>> 24, chip);
        note = `\t; ${p ? `|${p}` : hex3(x >>> 24)}`;
      }
    } else {
      const r = gpuRegName(x, chip);
      if (r) note = `\t; ${r}`;
    }
  }
  return text + note;
}

/** A word no encoding matches: a raw literal, or `[#jumptbl]` when it is the table's offset literal. */
function noMatch(word: number, chip: AfucChip, jumpTable: number): string {
  if (jumpTable >= 0 && word === nopLiteral(jumpTable & 0xffffff, chip.gen)) return '[#jumptbl]';
  const r = gpuRegName(word, chip);
  return `[${word.toString(16).padStart(8, '0')}]${r ? `\t; ${r}` : ''}`;
}

/**
 * Disassemble `words` (one section, offsets relative to its start) as isaspec does with branch
 * labels on: handlers from `entries`, `fxnN`/`lN` labels for targets inside the listing.
 */
export function disasmWords(words: Uint32Array, chip: AfucChip, entries: readonly EntryPoint[] = [], jumpTable = -1): string[] {
  const count = words.length;
  const dec = Array.from(words, (w) => decode(w, chip.gen));
  const targets: Targets = { branch: new Set(), call: new Set() };
  dec.forEach((d, n) => void (d && render(d, n, count, chip, targets)));
  const eps = [...entries].sort((a, b) => a.offset - b.offset || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let next = 0;
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const entry = next < eps.length && eps[next]!.offset === n;
    if ((targets.call.has(n) || entry) && n !== 0) out.push('');
    while (next < eps.length && eps[next]!.offset === n) out.push(`${eps[next++]!.name}:`);
    if (targets.call.has(n)) out.push(`fxn${n}:`);
    if (targets.branch.has(n)) out.push(`l${n}:`);
    const d = dec[n];
    out.push(d ? render(d, n, count, chip, { branch: new Set(), call: new Set() }) : noMatch(words[n]! >>> 0, chip, jumpTable));
  }
  return out;
}

/** Entry points from a packet table: each id's handler, named by packet or `UNKN<id>`. */
export function packetEntries(table: ArrayLike<number>, chip: AfucChip): EntryPoint[] {
  return Array.from(table, (offset, id) => ({ offset: offset >>> 0, name: packetName(id, chip) ?? `UNKN${id}` }));
}

/** One instruction alone, as afuc-disasm's emulator mode prints it (branch offsets, no labels). */
export function renderInstr(d: Decoded, chip: AfucChip): string {
  return render(d, 0, 1, chip, { branch: new Set(), call: new Set() });
}
