/**
 * Which ELF objects are R600-family code (a leaf: an architecture-neutral runner, gpusim run, asks
 * before any R600 decoder or table is loaded).
 */
import type { R600Gen } from './decode.js';

/** EF_AMDGPU_MACH values of the R600 family (LLVM's ELF.h). */
export const R600_MACH: Readonly<Record<number, { mcpu: string; gen: R600Gen }>> = {
  1: { mcpu: 'r600', gen: 'r600' }, 2: { mcpu: 'r630', gen: 'r600' }, 3: { mcpu: 'rs880', gen: 'r600' }, 4: { mcpu: 'rv670', gen: 'r600' },
  5: { mcpu: 'rv710', gen: 'r700' }, 6: { mcpu: 'rv730', gen: 'r700' }, 7: { mcpu: 'rv770', gen: 'r700' },
  8: { mcpu: 'cedar', gen: 'evergreen' }, 9: { mcpu: 'cypress', gen: 'evergreen' }, 10: { mcpu: 'juniper', gen: 'evergreen' },
  11: { mcpu: 'redwood', gen: 'evergreen' }, 12: { mcpu: 'sumo', gen: 'evergreen' }, 13: { mcpu: 'barts', gen: 'evergreen' },
  14: { mcpu: 'caicos', gen: 'evergreen' }, 15: { mcpu: 'cayman', gen: 'cayman' }, 16: { mcpu: 'turks', gen: 'evergreen' },
};

/**
 * Is this an R600-family ELF (EM_AMDGPU with an EF_AMDGPU_MACH_R600_* value)? Lets an
 * architecture-neutral runner (gpusim run) hand such objects to src/runtime/r600.ts.
 */
export function isR600Object(bytes: Uint8Array): boolean {
  if (bytes.length < 52 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46 || bytes[4] !== 1) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return dv.getUint16(18, true) === 224 && R600_MACH[dv.getUint32(36, true) & 0xff] !== undefined;
}

