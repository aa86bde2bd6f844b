/**
 * The GFX9/GFX10.3 -> GFX11 mnemonic aliases (src/amd/target/aliases.gen.ts, from llvm-mc) bind an
 * old instruction's decoded fields to a GFX11 instruction's semantics, so every alias must keep
 * the encoding family (a MUBUF load never becomes an SMEM one) and the register file of its first
 * operand. Checked here without LLVM: each alias's source is decoded from the old target's golden
 * files or kernel listings and must be in the family of its target (decoded from the gfx1100 golden
 * files), and the source example's operands, renamed to the target, must assemble for GFX11 (in the
 * old target's wave size) into an instruction of that family. And the legacy MUBUF names
 * the memory classes brought in run through the GFX11 semantics on gfx900 and gfx1030.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GFX1030_ALIASES, GFX900_ALIASES } from '../../src/amd/target/aliases.gen.js';
import { assembleLine, decodeAt, encodingFamily, sameFirstFile, type IsaTarget } from '../../src/amd/isa/target.js';
import { baseMnemonic } from '../../src/amd/engine/registry.js';
import { targets, waveTarget } from '../../src/amd/isa/targets.js';
import { Memory } from '../../src/core/memory.js';
import { bufGenOf, packVsharp } from '../../src/amd/exec/buffer.js';
import { runAsm } from './exec-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface Seen { readonly text: string; readonly family: string }

/** Decoded examples by base mnemonic: every golden file of `mcpu`, and its kernel listings. */
function examples(mcpu: string, target: IsaTarget): Map<string, Seen[]> {
  const out = new Map<string, Seen[]>();
  const add = (text: string, hex: string) => {
    const base = baseMnemonic(text.trim().split(/\s+/)[0]!);
    const list = out.get(base) ?? [];
    if (list.length >= 4) return;
    try {
      list.push({ text, family: encodingFamily(decodeAt(target, hex.trim().split(/\s+/).map((w) => parseInt(w, 16) >>> 0), 0).encoding) });
      out.set(base, list);
    } catch { /* a word this decoder does not take */ }
  };
  const gdir = join(ROOT, 'test/golden/amd', mcpu);
  for (const f of readdirSync(gdir).filter((x) => x.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(join(gdir, f), 'utf8').split('\n')) {
      const c = line.split('\t');
      if (c.length >= 3 && c[1] !== '' && !c[1]!.startsWith('<')) add(c[1]!, c[0]!);
    }
  }
  const kdir = join(ROOT, 'kernels/bin', mcpu);
  if (existsSync(kdir)) {
    for (const f of readdirSync(kdir).filter((x) => x.endsWith('.objdump.txt')).sort()) {
      for (const line of readFileSync(join(kdir, f), 'utf8').split('\n')) {
        const m = /^\t(\S.*?)\s*\/\/ [0-9A-Fa-f]+: ([0-9A-Fa-f ]+)$/.exec(line);
        if (m) add(m[1]!, m[2]!);
      }
    }
  }
  return out;
}

const GFX11_EX = examples('gfx1100', targets.gfx1100!);

for (const [mcpu, table] of [['gfx900', GFX900_ALIASES], ['gfx1030', GFX1030_ALIASES]] as const) {
  test(`${mcpu}: every alias keeps its encoding family and its first operand's register file`, () => {
    const old = examples(mcpu, targets[mcpu]!);
    const bad: string[] = [];
    let checked = 0;
    const g11 = waveTarget(targets.gfx1100!, mcpu === 'gfx900' ? 64 : 32)!;
    for (const [src, dst] of Object.entries(table)) {
      const a = old.get(src);
      const b = GFX11_EX.get(dst);
      assert.ok(a && a.length > 0, `${mcpu} ${src}: an example decodes`);
      assert.ok(b && b.length > 0, `gfx1100 ${dst}: an example decodes`);
      if (a[0]!.family !== b[0]!.family) bad.push(`${src} (${a[0]!.family}: ${a[0]!.text}) -> ${dst} (${b[0]!.family}: ${b[0]!.text})`);
      // The same operands under the GFX11 name: GFX11's assembler takes them (operand kinds and
      // register files agree) for at least one example, and encodes the target's family.
      const took = a.some((e) => {
        const renamed = e.text.replace(/^\S+/, (m) => dst + m.slice(baseMnemonic(m).length));
        try {
          return encodingFamily(decodeAt(g11, assembleLine(g11, renamed), 0).encoding) === b[0]!.family;
        } catch {
          return false;
        }
      });
      if (!took) bad.push(`${src} -> ${dst}: no example's operands assemble as ${dst} (${a.map((e) => e.text).join(' | ')})`);
      checked++;
    }
    assert.deepEqual(bad, []);
    // The memory classes are in: the wide MUBUF, FLAT and SCRATCH names have their GFX11 twins.
    for (const [s, d] of [['buffer_load_dwordx2', 'buffer_load_b64'], ['buffer_store_dwordx4', 'buffer_store_b128'], ['flat_load_dwordx3', 'flat_load_b96'], ['scratch_store_dword', 'scratch_store_b32'], ['s_buffer_load_dwordx2', 's_buffer_load_b64']]) {
      assert.equal(table[s], d, `${mcpu} ${s}`);
    }
    assert.ok(checked > 250, `${checked} aliases checked`);
  });
}

test('the check itself: a MUBUF load taken for the scalar s_buffer_load is refused on both counts', () => {
  const mubuf = GFX11_EX.get('buffer_load_b64')![0]!;
  const smem = GFX11_EX.get('s_buffer_load_b64')![0]!;
  assert.deepEqual([mubuf.family, smem.family], ['MUBUF', 'SMEM']);
  assert.equal(sameFirstFile('buffer_load_dwordx2 v[0:1], v2, s[0:3], 0 offen', smem.text), false);
  assert.equal(sameFirstFile('buffer_load_dwordx2 v[0:1], v2, s[0:3], 0 offen', mubuf.text), true);
  assert.deepEqual(['SOPK', 'SOP2', 'VOP3SD', 'VOPC', 'DS'].map(encodingFamily), ['SALU', 'SALU', 'VALU', 'VALU', 'DS']);
  // Renamed, the MUBUF operands do not assemble as the scalar load at all.
  assert.throws(() => assembleLine(targets.gfx1100!, 's_buffer_load_b64 v[0:1], v2, s[0:3], 0 offen'));
  assert.equal(encodingFamily(decodeAt(targets.gfx1100!, assembleLine(targets.gfx1100!, 'buffer_load_b64 v[0:1], v2, s[0:3], 0 offen'), 0).encoding), 'MUBUF');
});

test('legacy MUBUF names run on gfx900 and gfx1030: buffer_load_dwordx2, buffer_store_dwordx4, buffer_load_ubyte, buffer_atomic_add with return', () => {
  for (const [mcpu, ws] of [['gfx900', 64], ['gfx1030', 32]] as const) {
    const gfx = mcpu === 'gfx900' ? 9 : 10;
    const mem = new Memory();
    const seg = mem.alloc(256, 'buf');
    for (let i = 0; i < 64; i++) seg.dv.setUint32(4 * i, 0x1000 + i, true);
    const v = packVsharp(bufGenOf(gfx), { base: seg.base, records: 256 });
    const r = runAsm([
      'buffer_load_dwordx2 v[4:5], v0, s[0:3], 0 offen offset:8',
      'buffer_load_ubyte v6, v0, s[0:3], 0 offen offset:13',
      's_waitcnt vmcnt(0)',
      'buffer_store_dwordx4 v[4:7], v0, s[0:3], 0 offen offset:64',
      'v_mov_b32 v8, 5',
      'buffer_atomic_add v8, v0, s[0:3], 0 offen offset:128 glc',
      's_waitcnt vmcnt(0)',
      's_endpgm',
    ].join('\n'), { target: targets[mcpu]!, waveSize: ws, exec: 1, execHi: 0, mem, sgpr: { 0: v[0]!, 1: v[1]!, 2: v[2]!, 3: v[3]! }, vgpr: { 0: 0 } });
    assert.deepEqual(r.diags.map((d) => d.id), [], mcpu);
    assert.deepEqual([r.v(4), r.v(5), r.v(6), r.v(8)], [0x1002, 0x1003, 0x10, 0x1020], mcpu);
    assert.deepEqual([16, 17, 18, 19].map((i) => seg.dv.getUint32(4 * i, true)), [0x1002, 0x1003, 0x10, 0], `${mcpu}: stored v[4:7]`);
    assert.equal(seg.dv.getUint32(128, true), 0x1020 + 5, `${mcpu}: atomic add`);
  }
});
