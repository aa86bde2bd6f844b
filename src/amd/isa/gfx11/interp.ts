import type { Codec } from '../types.js';

/** Codecs of this family (filled in by the family's implementation). */
export const codecs: Codec[] = [];
