/**
 * Tiering of the fast engine (issue 24): a large basic block's generated function runs only once
 * waves have reached its start often enough to pay for V8 compiling it; until then the scheduler
 * steps its ops one by one through the same bound handlers (the fast engine's specialised ones,
 * shared by every op of the same handler source, so V8 optimises each of them once per process).
 *
 * Most of a cold run's cost was V8 optimising the block functions (TurboFan, on its own threads,
 * while the main thread runs the unoptimised function), and that cost grows with the function's
 * source: a straight block of 48 inlined LDS ops (50 KB of source) took 0.5-1.2 s of TurboFan
 * CPU, for a block each wave runs once. The rule is ski rental: a block whose source is at least
 * `minBytes` waits srcLen * visitsPerByteOp / ops visits, i.e. until the time its ops spent being
 * stepped one by one (about 0.1 us more per op than inside a compiled block) reaches what
 * compiling it costs (about 2.5 us of TurboFan CPU per byte of source, the middle of what was
 * measured on a loaded machine). Smaller blocks run compiled from their first visit, as before.
 * Blocks are still built (source, bytecode) at the first visit, which is cheap: V8 optimises only
 * functions that run. While a block waits, the PCs inside it wait as long (a wave's quantum cut
 * there would otherwise build a block for every suffix).
 *
 * Per-op stepping and blocks give the same results bit for bit (they run the same handlers, with
 * the same sanitizer steps, clock and budget; the differential tests run both), so the rule moves
 * only time.
 */
import type { Program } from './program.js';
import type { Block, BlockFn } from './block-types.js';
import { blockAt } from './block.js';

/**
 * The tiering settings of this thread. Blocks whose generated source has fewer than `minBytes`
 * characters run compiled at once; larger ones wait `srcLen * visitsPerByteOp / ops` visits
 * (`minBytes: Infinity` turns tiering off; tests set both to exercise both paths).
 */
export const tiering = { minBytes: 16384, visitsPerByteOp: 25 };

/** Source length of each block function (its text is shared by every block built from it). */
const srcLen = new WeakMap<BlockFn, number>();

function visitsBefore(b: Block): number {
  let n = srcLen.get(b.fn);
  if (n === undefined) {
    n = b.fn.toString().length;
    srcLen.set(b.fn, n);
  }
  return n < tiering.minBytes ? 0 : Math.round(n * tiering.visitsPerByteOp / b.n);
}

/**
 * The compiled block to run at `pc`, or null when the op there is to be stepped one by one: no
 * block can start there (block.ts blockAt), or it is not hot yet (this counts the visit).
 */
export function hotBlockAt(program: Program, pc: number): Block | null {
  const i = (pc - program.base) / 4;
  const heat = program.heat;
  const h = heat[i];
  if (h !== undefined && h > 0) {
    heat[i] = h - 1;
    return null;
  }
  const b = program.blocks[i];
  if (b !== undefined) return b;
  const nb = blockAt(program, pc);
  if (nb === null) return null;
  const wait = visitsBefore(nb);
  if (wait === 0) return nb;
  // Its ops are stepped: the PCs inside it wait as long before blocks of their own are built there.
  heat[i] = wait - 1;
  for (let k = 0, p = i; k < nb.n - 1; k++) {
    p += nb.ops[k]!.size >>> 2;
    if (heat[p] === 0 && program.blocks[p] === undefined) heat[p] = wait;
  }
  return null;
}
