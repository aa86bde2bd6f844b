/**
 * Binding an instruction to its semantics. Importing this module loads every family.
 * An instruction without semantics binds to a handler that reports `gpusim.unimplemented`
 * and halts the wave (the run reports it; it never crashes).
 */
import type { Instruction } from '../isa/types.js';
import type { ExecEnv } from './env.js';
import { lookup, type Bound } from './registry.js';
import '../exec/salu.js';
import '../exec/valu.js';
import '../exec/valu-float.js';
import '../exec/valu-cvt.js';
import '../exec/valu-cmp.js';
import '../exec/valu-lane.js';
import '../exec/smem.js';
import '../exec/vmem.js';
import '../exec/ds.js';
import '../exec/flat.js';
import '../exec/buffer.js';
import '../exec/flow.js';
import '../exec/vop3p.js';
import '../exec/vopd.js';
import '../exec/ldsdir-vinterp.js';
import '../exec/vintrp.js';
import '../exec/pops-exec.js';
import { bindFast } from './fast-registry.js';
import './fast-valu.js';
import '../exec/exp.js';
import '../exec/mimg.js';
import '../exec/bvh.js';
import './fast-salu.js';

export function bindInstruction(inst: Instruction, env: ExecEnv): Bound {
  const ref = bindReference(inst, env);
  // engine 'fast': a specialised handler for the plain forms, the reference one otherwise
  return (env.engine !== 'interp' && bindFast(inst, env, ref)) || ref;
}

/**
 * The reference binding alone (bindInstruction less the fast engine's specialised handler, which
 * bindFast makes from it): Program binds an op of a fast dispatch so until the op is hot (tier.ts).
 */
export function bindReference(inst: Instruction, env: ExecEnv): Bound {
  const b = lookup(inst.mnemonic);
  if (b) return b(inst, env);
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
