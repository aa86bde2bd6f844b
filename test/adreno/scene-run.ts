/** Shared by the a6xx draw tests: build a scene's sysmem stream, run it, then an optional second stream on the same CP. */
import { buildDraw, type BuiltDraw, type GfxScene } from '../../src/adreno/driver/sysmem.js';
import { CommandProcessor } from '../../src/adreno/cp/cp.js';
import type { CmdStream } from '../../src/adreno/cp/builder.js';
import { Diagnostics } from '../../src/core/diagnostics.js';

export function runSceneStream(d: GfxScene, after?: CmdStream): { b: BuiltDraw; diag: Diagnostics; cp: CommandProcessor } {
  const b = buildDraw(d);
  const diag = new Diagnostics();
  const cp = new CommandProcessor(b.mem, { diag, gpuId: d.gpuId });
  cp.run(b.streamIova, b.stream.length);
  if (after) runAfter(b, cp, after);
  return { b, diag, cp };
}

/** Run a second stream on the same CP (its dwords placed in the scene's memory). */
export function runAfter(b: BuiltDraw, cp: CommandProcessor, after: CmdStream): void {
  const seg = b.mem.alloc(after.bytes().length, 'ib2', 0x1000, after.bytes());
  cp.run(seg.base, after.dwords().length);
}
