/**
 * Binding an instruction to its semantics. Importing this module loads every family.
 * An instruction without semantics binds to a handler that reports `gpusim.unimplemented`
 * and halts the wave (the run reports it; it never crashes).
 */
import type { Instruction } from '../isa/types.js';
import type { ExecEnv } from './env.js';
import { lookup, type Bound } from './registry.js';
import './salu.js';
import './valu.js';
import './valu-float.js';
import './valu-cvt.js';
import './valu-cmp.js';
import './valu-lane.js';
import './smem.js';
import './vmem.js';
import './ds.js';
import './flat.js';
import './buffer.js';
import './flow.js';
import './vop3p.js';
import './vopd.js';
import './interp.js';
import './vintrp.js';
import './pops-exec.js';
import { bindFast } from './fast-registry.js';
import './fast-valu.js';
import './exp.js';
import './mimg.js';
import './fast-salu.js';

export function bindInstruction(inst: Instruction, env: ExecEnv): Bound {
  const b = lookup(inst.mnemonic);
  if (b) {
    const ref = b(inst, env);
    // engine 'fast': a specialised handler for the plain forms, the reference one otherwise
    return (env.engine !== 'interp' && bindFast(inst, env, ref)) || ref;
  }
  return {
    cls: 'other',
    run: (w) => {
      env.diag.report({
        id: 'gpusim.unimplemented', severity: 'error',
        where: { pc: w.pc - inst.size, wave: w.id },
        message: `${inst.mnemonic} is not implemented by gpusim yet; the wave stops here`,
      });
      w.state = 'halted';
    },
  };
}
