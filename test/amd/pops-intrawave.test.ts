/**
 * pops.intrawave.subgroup-lanes (seed "Resolving intrawave collisions"): a subgroup operation
 * influenced by lanes outside the lane's quad, executed inside the layered ordered section of a
 * GFX9-10.3 wave with intrawave collisions, sees a different set of active lanes than outside.
 * Executed on gfx1030 with the OIT scene of src/amd/gfx/pops-oit.ts (global storage image, null
 * export, see pops-gfx103.test.ts), the op spliced into the shader at different places.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/amd/engine/bind.js';
import { gfx10 } from '../../src/amd/isa/gfx10/index.js';
import { decodeAt } from '../../src/amd/isa/target.js';
import { assembleWithLabels } from '../../src/amd/gfx/pops-run.js';
import { crossQuadOp } from '../../src/amd/exec/pops-exec.js';
import { imageDiff, oitShader, runOit } from '../../src/amd/gfx/pops-oit.js';

const ID = 'pops.intrawave.subgroup-lanes';
const layered = [{ samples: 4, interlock: 'pixel', intrawave: true }, { samples: 4, interlock: 'pixel', intrawave: true }] as const;
const flat = [{ samples: 4, interlock: 'pixel' }, { samples: 4, interlock: 'pixel' }] as const;

/** The intrawave OIT shader with `op` inserted after the line matching `at` (first match). */
function splice(intrawave: boolean, op: string, at: RegExp): string {
  const lines = oitShader('gfx103', 'correct', intrawave).split('\n');
  const i = lines.findIndex((l) => at.test(l));
  assert.ok(i >= 0, `anchor ${at}`);
  lines.splice(i + 1, 0, `  ${op}`);
  return lines.join('\n');
}
const IN_LAYER = /s_andn2_b32 s14, s14, s16/; // first line of each pass of the layer loop
const BEFORE_ENTER = /s_bitcmp1_b32 s0, 31/; // inside the entering code, before the wait

function ids(shader: string, draws: typeof layered | typeof flat, seeds = 5): { ids: Set<string>; diffs: number } {
  const out = new Set<string>();
  let diffs = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const r = runOit({ gen: 'gfx103', target: gfx10, seed, draws, prims: 24, size: 32, shader });
    for (const d of r.diags.list) out.add(d.id);
    diffs += imageDiff(r.image, r.reference);
  }
  return { ids: out, diffs };
}

test('crossQuadOp: cross-quad DPP/DPP8/swizzle/permute/readlane/ballot are subgroup operations; quad-local forms and VCC compares are not', () => {
  const kinds = (src: string): (string | null)[] => {
    const w = assembleWithLabels(gfx10, src);
    const out: (string | null)[] = [];
    for (let i = 0; i < w.length;) {
      const d = decodeAt(gfx10, w, i);
      out.push(crossQuadOp(d));
      i += d.size / 4;
    }
    return out;
  };
  assert.deepEqual(kinds(`v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
v_add_nc_u32_dpp v1, v2, v3 row_ror:4 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v1, v2 dpp8:[4,0,3,2,5,4,7,6]
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)
ds_bpermute_b32 v1, v2, v3
v_readfirstlane_b32 s1, v2
v_readlane_b32 s1, v2, 3
v_permlane16_b32 v1, v2, s1, s2
v_cmp_ne_u32_e64 s20, 0, v1`).map((k) => k !== null), [true, true, true, true, true, true, true, true, true]);
  assert.deepEqual(kinds(`v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v1, v2 dpp8:[1,0,3,2,5,4,7,6]
ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,1,0,3,2)
ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,1)
v_cmp_ne_u32_e32 vcc_lo, 0, v1
v_cmp_ne_u32_e64 vcc_lo, 0, v1
v_add_nc_u32_e32 v1, v2, v3`), [null, null, null, null, null, null, null]);
});

test(`${ID}: fires for v_readfirstlane, a cross-row DPP and a ballot inside the layer loop`, () => {
  for (const op of ['v_readfirstlane_b32 s20, v2', 'v_mov_b32_dpp v20, v2 row_shr:1 row_mask:0xf bank_mask:0xf', 'v_cmp_ne_u32_e64 s20, 0, v1']) {
    const r = ids(splice(true, op, IN_LAYER), layered);
    assert.ok(r.ids.has(ID), op);
    assert.equal(r.diffs, 0, 'the op does not change the image; only its own result differs');
  }
});

test(`${ID}: quiet for the same op outside the ordered section, for quad-local ops in the loop, and without INTRAWAVE_COLLISION`, () => {
  assert.deepEqual([...ids(splice(true, 'v_readfirstlane_b32 s20, v2', BEFORE_ENTER), layered).ids], []);
  assert.deepEqual([...ids(splice(true, 'v_mov_b32_dpp v20, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf', IN_LAYER), layered).ids], []);
  assert.deepEqual([...ids(oitShader('gfx103', 'correct', true), layered).ids], [], 'the correct intrawave shader (v_cmp into VCC only)');
  // Without intrawave collisions the ordered section runs with the lanes it entered with.
  assert.deepEqual([...ids(splice(false, 'v_readfirstlane_b32 s20, v2', /\.Lsample:/), flat).ids], []);
});
