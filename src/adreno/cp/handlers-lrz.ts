/**
 * LRZ in draws (gras/lrz.ts): with GRAS_LRZ_CNTL enabled for the draw (after the direction and
 * depth-view checks) and Z_TEST_ENABLE, each fragment is tested against its 8x8 block before the FS
 * (D16: the fragment's nearest sample rounded towards passing); with LRZ_WRITE, after the draw every
 * touched block that lies wholly inside the draw's scissor takes the farthest (LESS) or nearest
 * (GREATER) depth the depth buffer now holds there — the bound the seed describes, exact for a
 * correctly built buffer. A buffer built in the other direction rejects visible fragments: what
 * `adreno.lrz.wrong-direction` warns about.
 */
import { decodeFields } from '../regs/db.js';
import type { DrawJob } from '../pc/draw.js';
import type { Fragment } from '../gras/raster.js';
import type { RbTargets } from '../rb/output.js';
import type { LrzDrawState } from '../gras/lrz.js';
import type { CommandProcessor } from './cp.js';
import { lrzCntl, regAddr } from './handlers-event.js';

export function lrzHook(cp: CommandProcessor, job: DrawJob, targets: RbTargets, st: LrzDrawState | undefined): DrawJob['lrz'] {
  if (!st?.enabled || !targets.depth) return undefined;
  const cntl = lrzCntl(cp);
  const base = regAddr(cp, 'GRAS_LRZ_BUFFER_BASE');
  const po = cp.regsDb.reg('GRAS_LRZ_BUFFER_PITCH');
  const pitch = decodeFields(cp.regsDb.at(po)!.type, cp.readReg(po), 0, cp.gen)['PITCH'] ?? 0;
  const fc = regAddr(cp, 'GRAS_LRZ_FAST_CLEAR_BUFFER_BASE');
  if (!base || !pitch) return undefined;
  const greater = cntl.GREATER === 1;
  const depth = targets.depth;
  const samples = job.rb.samples;
  const sc = job.scissor;
  return {
    test: (x, y, zmin, zmax) => !cntl.Z_TEST_ENABLE || cp.lrz.test(base, pitch, fc, cntl, x >> 3, y >> 3, Math.floor(zmin * 0xffff), Math.ceil(zmax * 0xffff)),
    after: (frags: readonly Fragment[]) => {
      if (!st.write) return;
      const blocks = new Set<number>();
      for (const f of frags) blocks.add((f.y >> 3) * 65536 + (f.x >> 3));
      for (const k of blocks) {
        const bx = k % 65536, by = Math.floor(k / 65536);
        const x0 = bx * 8, y0 = by * 8;
        if (x0 < sc.x0 || y0 < sc.y0 || x0 + 7 > sc.x1 || y0 + 7 > sc.y1) continue;
        let far = greater ? Infinity : -Infinity;
        for (let y = y0; y < y0 + 8; y++) for (let x = x0; x < x0 + 8; x++) for (let s = 0; s < samples; s++) {
          const z = depth.readDepth(x, y, s);
          far = greater ? Math.min(far, z) : Math.max(far, z);
        }
        const z16 = greater ? Math.floor(Math.max(0, far) * 0xffff) : Math.ceil(Math.min(1, far) * 0xffff);
        cp.lrz.update(base, pitch, fc, cntl, bx, by, z16);
      }
    },
  };
}
