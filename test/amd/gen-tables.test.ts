/**
 * The heaviest generators (LLVM probes of valu, memory, scalar) reproduce their committed output
 * (test/gen-check.ts). Apart from test/gen.test.ts so that node's runner, taking files in path
 * order, starts them mid-suite. GPUSIM_SKIP_REGEN=1 skips them.
 */
import { checkGenerators, HEAVY } from '../gen-check.js';

checkGenerators((name) => HEAVY.has(name));
