/**
 * Every generator but the heaviest reproduces its committed output (test/gen-check.ts; the
 * heaviest are in test/amd/gen-tables.test.ts). GPUSIM_SKIP_REGEN=1 skips them all.
 */
import { checkGenerators, HEAVY } from './gen-check.js';

checkGenerators((name) => !HEAVY.has(name));
