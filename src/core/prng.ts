/**
 * The one deterministic PRNG of the project (mulberry32): the scheduler's random order, manifest
 * buffer initialisation, the POPS runner and cache latencies, and the seeded tests all draw from it,
 * so a seed means the same sequence everywhere.
 */

/** A generator of floats uniform in [0, 1), 32 bits of state seeded from `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same sequence as `mulberry32(seed)`, as unsigned 32-bit integers (the float times 2^32, exactly). */
export function mulberry32U32(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r() * 4294967296;
}
