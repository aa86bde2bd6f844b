/**
 * Cold-start accounting of this thread (process-wide, never reset; readers take differences):
 * `compileMs` is the time spent building basic blocks (block.ts: looking ahead, generating the
 * source, `new Function` and V8's bytecode compile of it), `blocks` how many were built and
 * `blockFns` how many of them needed a new function (the rest reused one with the same source),
 * `cachedBlocks` how many took their plan from the block cache (block.ts setBlockStore);
 * `bindMs` the time spent decoding and binding ops (Program.peek); `firstInstAt` the
 * performance.now() at which the first dispatch of the thread started issuing (NaN before).
 * V8's optimising compiles run on its own threads and are not in here (docs/speed.md).
 */
export const engineTime = { compileMs: 0, blocks: 0, blockFns: 0, cachedBlocks: 0, bindMs: 0, binds: 0, firstInstAt: NaN };
