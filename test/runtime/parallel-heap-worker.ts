// The worker side of parallel-heap.test.ts: adopts the heap posted to it, allocates blocks while
// the main thread does, writes each block's offset into it, and reads the probe the main thread
// wrote. (Loaded as a test file too, where there is no parent port: then it does nothing.)
import { parentPort } from 'node:worker_threads';
import { adoptHeap, heapAlloc, heapBuffer } from '../../src/amd/engine/wasm/heap.js';
import type { WasmMemory } from '../../src/amd/engine/wasm/api.js';

parentPort?.once('message', (m: { mem: WasmMemory; n: number; probe: number; go: SharedArrayBuffer }) => {
  const adopted = adoptHeap(m.mem);
  // Ready; then both threads allocate at once.
  const go = new Int32Array(m.go);
  Atomics.store(go, 0, 1);
  Atomics.notify(go, 0);
  while (Atomics.load(go, 1) === 0);
  const blocks: [number, number][] = [];
  for (let i = 0; i < m.n; i++) {
    const size = 64 * (1 + ((i * 3) % 5));
    const off = heapAlloc(size);
    if (off > 0) new Int32Array(heapBuffer(), off, 1)[0] = off;
    blocks.push([off, size]);
  }
  const seen = new Int32Array(heapBuffer(), m.probe, 1)[0]!;
  parentPort!.postMessage({ adopted, again: adoptHeap(m.mem), blocks, seen });
});
