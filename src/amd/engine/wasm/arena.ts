/**
 * Register arenas of the wasm tier: a wave's register block (wave.ts: SGPRs, the 64-bit constant
 * rows, hardware registers, VGPRs) is allocated inside a WebAssembly.Memory, so translated code
 * reads and writes the wave's registers where the JavaScript handlers see them (through typed-array
 * views of the same bytes), with no copying per call. An arena's memory never grows (growing would
 * detach every view of it): a full arena is followed by a new one, and each translated module is
 * instantiated once per arena it meets. A block freed (its wave collected) is reused by a block of
 * the same size. The first SCRATCH_BYTES of each arena are the translated code's scratch row.
 */
import { waveRegs } from '../../wave/wave.js';
import { Wasm, type WasmMemory } from './api.js';

/** 16 MiB per arena: about 240 waves of the largest register block (256 VGPRs, wave64). */
const PAGES = 256;
const ARENA_BYTES = PAGES * 65536;
/** The scratch row (64 lanes x 4 bytes), rounded to the block alignment. */
export const SCRATCH_BYTES = 256;
const ALIGN = 64;

export interface Arena {
  readonly mem: WasmMemory;
  top: number;
  /** Freed blocks by size. */
  readonly free: Map<number, number[]>;
}

export const arenas: Arena[] = [];

const registry = new FinalizationRegistry<readonly [number, number, number]>(([a, off, size]) => {
  const arena = arenas[a];
  if (arena === undefined) return;
  let list = arena.free.get(size);
  if (list === undefined) arena.free.set(size, (list = []));
  list.push(off);
});

/** A register block of `bytes` for `owner` (freed when owner is collected). */
export function allocRegs(bytes: number, owner: object): { buffer: ArrayBuffer; offset: number; arena: number } {
  const size = Math.ceil(bytes / ALIGN) * ALIGN;
  if (size > ARENA_BYTES - SCRATCH_BYTES) throw new Error(`register block of ${bytes} bytes exceeds an arena`);
  for (let a = arenas.length - 1; a >= 0; a--) {
    const arena = arenas[a]!;
    const list = arena.free.get(size);
    const off = list?.pop() ?? (arena.top + size <= ARENA_BYTES ? (arena.top += size) - size : -1);
    if (off < 0) continue;
    // A reused block may hold an old wave's registers: the Wave constructor expects zeroes.
    new Uint8Array(arena.mem.buffer, off, size).fill(0);
    registry.register(owner, [a, off, size]);
    return { buffer: arena.mem.buffer, offset: off, arena: a };
  }
  arenas.push({ mem: new Wasm.Memory({ initial: PAGES, maximum: PAGES }), top: SCRATCH_BYTES, free: new Map() });
  return allocRegs(bytes, owner);
}

/** Allocate the register blocks of waves created from now on in arenas (on) or plain buffers (off). */
export function useArenas(on: boolean): void {
  waveRegs.alloc = on ? allocRegs : null;
}
