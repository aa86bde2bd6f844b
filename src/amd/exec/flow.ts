/**
 * Program control (SOPP/SOP1/SOPK): end, branches, calls, PC moves, waits, barriers, sleep,
 * messages. PC rules from the wave-state seed: a branch goes to (PC of the next instruction +
 * simm16 * 4); S_GETPC returns the next instruction's address; the handler sees `w.pc` already
 * advanced to the next instruction.
 */
import type { Instruction } from '../isa/types.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import type { Wave } from '../wave/wave.js';
import type { Inline } from '../engine/types.js';
import { HI, sread64, swrite32, swrite64 } from './operands.js';
import { once, sdefine as define } from './salu.js';
import { BRANCH_OPS } from './salu-ops.js';
import { realtime } from './hwreg.js';
import { enterTrap, raiseException, trapEnabled, TRAPSTS } from './trap.js';
import { messageSinks, sendToSink } from './msg.js';
import { popsAttached, popsEndpgm, popsSendmsg, popsSleep, popsWaitEvent, POPS_WAIT_EVENT_RETRY } from './pops-exec.js';

const simm16 = (inst: Instruction): number => ((inst.fields.simm16 ?? 0) << 16) >> 16;

define(['s_endpgm', 's_endpgm_saved'], (inst) => ({
  cls: 'branch',
  run: (w) => {
    if (popsAttached.any) popsEndpgm(w, w.pc - inst.size); // POPS: the wave leaves its ordered section
    w.state = 'ended';
  },
}));
/**
 * No architectural effect in this model: scheduling hints (s_nop, s_delay_alu, s_clause,
 * s_set_inst_prefetch_distance, s_waitcnt_depctr: every result is ready at issue), cache/trace
 * controls, performance levels and s_setkill (pixel shaders only). Their code is no statements,
 * which a basic block inlines (engine/block.ts) instead of calling the empty handler.
 */
const NOTHING: Inline['code'] = [];
define(['s_nop', 's_delay_alu', 's_clause', 's_waitcnt_depctr', 's_set_inst_prefetch_distance', 's_icache_inv', 's_ttracedata', 's_ttracedata_imm',
  's_incperflevel', 's_decperflevel', 's_setkill'], () => {
  const run = (): void => {};
  return { cls: 'other', run, inline: { run, code: NOTHING, params: [], args: [], key: 'nothing' } };
});
/**
 * s_wait_event: with SIMM16[0] = 0 a pixel-shader wave waits for export_ready, which under POPS
 * (GFX11) means its overlapped waves left their ordered sections; the wave stays at this
 * instruction, asleep until an exit wakes it (or a retry delay passes). A compute wave never
 * waits on it.
 */
define('s_wait_event', (inst, env) => {
  const imm = inst.fields.simm16 ?? 0;
  return {
    cls: 'other',
    run: (w) => {
      if (!popsAttached.any || popsWaitEvent(w, imm, w.pc - inst.size)) return;
      w.pc -= inst.size;
      w.sleepUntil = env.now() + POPS_WAIT_EVENT_RETRY;
      w.state = 'sleep';
    },
  };
});

function branch(name: string, taken: (w: Wave) => boolean): void {
  define(name, (inst) => {
    const off = simm16(inst) * 4;
    return { cls: 'branch', run: (w) => void (taken(w) && (w.pc += off)) };
  });
}
// The conditions of salu-ops.ts (the description the fast tier inlines too), compiled per wave size.
for (const [name, cond] of BRANCH_OPS) {
  const [t32, t64] = [32, 64].map((ws) => new Function('w', `return ${cond(ws)};`) as (w: Wave) => boolean) as [(w: Wave) => boolean, (w: Wave) => boolean];
  branch(name, (w) => (w.waveSize === 64 ? t64(w) : t32(w)));
}
// Conditional debug branches: STATUS.COND_DBG_USER / COND_DBG_SYS (set only by a debugger).
const dbgUser = (w: Wave) => (w.hw[HWREG.STATUS]! & STATUS.COND_DBG_USER) !== 0;
const dbgSys = (w: Wave) => (w.hw[HWREG.STATUS]! & STATUS.COND_DBG_SYS) !== 0;
branch('s_cbranch_cdbguser', dbgUser);
branch('s_cbranch_cdbgsys', dbgSys);
branch('s_cbranch_cdbgsys_or_user', (w) => dbgUser(w) || dbgSys(w));
branch('s_cbranch_cdbgsys_and_user', (w) => dbgUser(w) && dbgSys(w));

/** PC[63:32] as the SGPR pair holds it: PC[47:32] sign-extended from bit 47. */
const pcHi = (pc: number): number => ((Math.floor(pc / 0x1_0000_0000) & 0xffff) << 16) >> 16;

define('s_getpc_b64', (inst) => {
  const d = inst.fields.sdst ?? 0;
  return { cls: 'salu', run: (w) => void swrite64(w, d, w.pc >>> 0, pcHi(w.pc) >>> 0) };
});
define('s_setpc_b64', (inst) => {
  const A = sread64(inst.fields.ssrc0 ?? 0, inst.literal);
  return { cls: 'branch', run: (w) => void (w.pc = A(w) + (HI[0]! & 0xffff) * 0x1_0000_0000) };
});
define('s_swappc_b64', (inst) => {
  const A = sread64(inst.fields.ssrc0 ?? 0, inst.literal);
  const d = inst.fields.sdst ?? 0;
  return {
    cls: 'branch',
    run: (w) => {
      const target = A(w) + (HI[0]! & 0xffff) * 0x1_0000_0000;
      swrite64(w, d, w.pc >>> 0, pcHi(w.pc) >>> 0);
      w.pc = target;
    },
  };
});
define('s_call_b64', (inst) => {
  const d = inst.fields.sdst ?? 0;
  const off = simm16(inst) * 4;
  return {
    cls: 'branch',
    run: (w) => {
      swrite64(w, d, w.pc >>> 0, pcHi(w.pc) >>> 0);
      w.pc += off;
    },
  };
});

/** What s_waitcnt waits for (GFX11 simm16: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10]): each counter is brought down to its limit. */
export function waitcntLimits(simm16: number): { readonly vm: number; readonly lgkm: number; readonly exp: number } {
  return { exp: simm16 & 7, lgkm: (simm16 >>> 4) & 0x3f, vm: (simm16 >>> 10) & 0x3f };
}

define('s_waitcnt', (inst) => {
  const { vm, lgkm, exp } = waitcntLimits(inst.fields.simm16 ?? 0);
  // (GFX9 counts stores on VM_CNT with the loads: target/space.ts storeCounter.)
  return {
    cls: 'other',
    run: (w) => {
      if (w.vmcnt > vm) w.vmcnt = vm;
      if (w.lgkmcnt > lgkm) w.lgkmcnt = lgkm;
      if (w.expcnt > exp) w.expcnt = exp;
    },
  };
});
for (const [name, key] of [['s_waitcnt_vscnt', 'vscnt'], ['s_waitcnt_vmcnt', 'vmcnt'], ['s_waitcnt_lgkmcnt', 'lgkmcnt'], ['s_waitcnt_expcnt', 'expcnt']] as const) {
  define(name, (inst) => {
    const n = inst.fields.simm16 ?? 0;
    const sd = inst.fields.sdst ?? SREG.NULL;
    return {
      cls: 'other',
      run: (w) => {
        const lim = Math.min(n, sd === SREG.NULL ? n : w.s[sd]!);
        if (w[key] > lim) w[key] = lim;
      },
    };
  });
}

define('s_barrier', () => ({ cls: 'other', run: (w) => void (w.state = 'barrier') }));

/** MSG ids (GFX11, s_sendmsg simm16[7:0]; the s_sendmsg_rtn ids are 128 and up). */
export const MSG = {
  INTERRUPT: 1, HS_TESSFACTOR: 2, DEALLOC_VGPRS: 3, STALL_WAVE_GEN: 5, HALT_WAVES: 6, GS_ALLOC_REQ: 9,
  RTN_GET_DOORBELL: 128, RTN_GET_DDID: 129, RTN_GET_TMA: 130, RTN_GET_REALTIME: 131, RTN_SAVE_WAVE: 132,
  RTN_GET_TBA: 133, RTN_GET_TBA_TO_PC: 134,
} as const;

/** GFX9-10.3 MSG_ORDERED_PS_DONE: a POPS wave leaves its ordered section (not a GFX11 message). */
const MSG_ORDERED_PS_DONE = 7;

/** Messages a compute wave may send that change nothing else in this model. */
const QUIET_MSGS = new Set<number>([MSG.INTERRUPT, MSG.STALL_WAVE_GEN, MSG.HALT_WAVES, MSG.GS_ALLOC_REQ, MSG.HS_TESSFACTOR]);

function sendmsg(inst: Instruction, env: Parameters<typeof once>[0], halt: boolean): { cls: 'msg'; run: (w: Wave) => void; findings?: { id: string; message: string }[] } {
  const simm = inst.fields.simm16 ?? 0;
  const id = simm & 0xff;
  const findings = id !== MSG.DEALLOC_VGPRS && !QUIET_MSGS.has(id)
    ? [{ id: 'gfx11.sendmsg.unknown', message: `${inst.mnemonic}: message id ${id} is not a GFX11 s_sendmsg message; it is dropped` }]
    : [];
  const halted = once(env, inst, 'gfx11.wave.halted', 'error');
  const orderedPsDone = id === MSG_ORDERED_PS_DONE;
  return {
    cls: 'msg', findings,
    run: (w) => {
      if (!halt && messageSinks.any) sendToSink(w, simm, w.pc - inst.size);
      if (orderedPsDone && popsAttached.any) popsSendmsg(w, id, w.pc - inst.size);
      if (id === MSG.DEALLOC_VGPRS) w.vgprsReleased = true;
      if (halt) {
        halted(w, 'the wave halts after sending its message; nothing resumes it without a debugger');
        haltWave(w, 's_sendmsghalt');
      }
    },
  };
}
define('s_sendmsg', (inst, env) => sendmsg(inst, env, false));
define('s_sendmsghalt', (inst, env) => sendmsg(inst, env, true));

function haltWave(w: Wave, why: string): void {
  w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! | STATUS.HALT) >>> 0;
  w.haltReason = why;
  w.state = 'halted';
}

/**
 * s_sendmsg_rtn_b32/b64: a message whose reply lands in SDST (counted on LGKM_CNT).
 * DOORBELL and DDID read 0 (one queue, dispatch id 0); SAVE_WAVE replies 0.
 */
for (const b64 of [false, true]) {
  define(b64 ? 's_sendmsg_rtn_b64' : 's_sendmsg_rtn_b32', (inst, env) => {
    const id = (inst.fields.ssrc0 ?? 0) & 0xff;
    const d = inst.fields.sdst ?? SREG.NULL;
    const known = id >= MSG.RTN_GET_DOORBELL && id <= MSG.RTN_GET_TBA_TO_PC;
    const findings = known ? [] : [{ id: 'gfx11.sendmsg.unknown', message: `${inst.mnemonic}: message id ${id} is not a GFX11 returning message; SDST reads 0` }];
    return {
      cls: 'msg', findings,
      run: (w) => {
        let v = 0;
        switch (id) {
          case MSG.RTN_GET_TMA: v = w.tma; break;
          case MSG.RTN_GET_TBA: case MSG.RTN_GET_TBA_TO_PC: v = w.tba; break;
          case MSG.RTN_GET_REALTIME: v = realtime(env); break;
          default: v = 0;
        }
        if (b64) swrite64(w, d, v >>> 0, Math.floor(v / 0x1_0000_0000) >>> 0);
        else swrite32(w, d, v >>> 0);
        if (w.lgkmcnt < 63) w.lgkmcnt++;
      },
    };
  });
}

/** s_wait_idle: wait until every counter is zero (memory completes at issue in this model). */
define('s_wait_idle', () => ({ cls: 'other', run: (w) => void (w.vmcnt = w.vscnt = w.lgkmcnt = w.expcnt = 0) }));

/**
 * s_sleep: the wave stops issuing for about 64 * SIMM16[6:0] clocks (model clock `env.now()`);
 * the scheduler runs other waves meanwhile. s_sleep 0 just yields the rest of the wave's turn.
 */
define('s_sleep', (inst, env) => {
  const imm = inst.fields.simm16 ?? 0;
  const clocks = 64 * (imm & 0x7f);
  return {
    cls: 'other',
    run: (w) => {
      w.sleepUntil = env.now() + clocks;
      w.state = 'sleep';
      // POPS wait loop: GFX10+ exits of the packer wake the wave before the delay runs out.
      if (popsAttached.any) popsSleep(w, imm, w.pc - inst.size);
    },
  };
});
/** s_wakeup: wake the sleeping waves of this workgroup at once. */
define('s_wakeup', () => ({
  cls: 'other',
  run: (w) => {
    for (const p of w.peers) if (p !== w && p.state === 'sleep') p.state = 'ready';
  },
}));

/** s_setprio: STATUS.USER_PRIO = SIMM16[1:0]. */
define('s_setprio', (inst) => {
  const p = ((inst.fields.simm16 ?? 0) & 3) << 3;
  return { cls: 'salu', run: (w) => void (w.hw[HWREG.STATUS] = ((w.hw[HWREG.STATUS]! & ~STATUS.USER_PRIO) | p) >>> 0) };
});
/** s_round_mode / s_denorm_mode: MODE.FP_ROUND [3:0] / MODE.FP_DENORM [7:4] = SIMM16[3:0]. */
define('s_round_mode', (inst) => {
  const v = (inst.fields.simm16 ?? 0) & 15;
  return { cls: 'salu', run: (w) => void (w.hw[HWREG.MODE] = ((w.hw[HWREG.MODE]! & ~0xf) | v) >>> 0) };
});
define('s_denorm_mode', (inst) => {
  const v = ((inst.fields.simm16 ?? 0) & 15) << 4;
  return { cls: 'salu', run: (w) => void (w.hw[HWREG.MODE] = ((w.hw[HWREG.MODE]! & ~0xf0) | v) >>> 0) };
});

/** s_sethalt: SIMM16[0]=1 halts the wave (only a debugger resumes it: the dispatch stops); 0 is a NOP. */
define('s_sethalt', (inst, env) => {
  const on = ((inst.fields.simm16 ?? 0) & 1) === 1;
  const report = once(env, inst, 'gfx11.wave.halted', 'error');
  return {
    cls: 'other',
    run: (w) => {
      if (!on) return;
      report(w, 'the wave sets STATUS.HALT; nothing resumes it without a debugger');
      haltWave(w, 's_sethalt');
    },
  };
});

/**
 * s_trap: with a trap handler (STATUS.TRAP_EN) and outside it, enter the handler with TTMP0/1 =
 * the s_trap's own PC and TRAP_ID = SIMM16[7:0]; otherwise the hardware turns it into a NOP.
 */
define('s_trap', (inst) => {
  const trapId = (inst.fields.simm16 ?? 0) & 0xff;
  return {
    cls: 'branch',
    run: (w) => {
      if (!trapEnabled(w) || w.priv) return;
      enterTrap(w, w.pc - inst.size, trapId);
    },
  };
});
/** s_rfe_b64: return from the trap handler: PC = S0 (48-bit), STATUS.PRIV = 0. */
define('s_rfe_b64', (inst, env) => {
  const A = sread64(inst.fields.ssrc0 ?? 0, inst.literal);
  const report = once(env, inst, 'gfx11.trap.rfe-user', 'error');
  return {
    cls: 'branch',
    run: (w) => {
      if (!w.priv) report(w, 'executed outside a trap handler (STATUS.PRIV=0)');
      const lo = A(w);
      w.pc = lo + (HI[0]! & 0xffff) * 0x1_0000_0000;
      w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! & ~(STATUS.PRIV | STATUS.TRAP)) >>> 0;
    },
  };
});

/**
 * s_code_end pads the end of the code; executing it is an illegal instruction: the trap handler
 * runs (TRAPSTS.ILLEGAL_INST) when installed, else the wave halts.
 */
define('s_code_end', (inst, env) => {
  const report = once(env, inst, 'gfx11.code-end.executed', 'error');
  return {
    cls: 'other',
    run: (w) => {
      const pc = w.pc - inst.size;
      report(w, 'executed: the wave ran past the end of its code (s_code_end is padding and an illegal instruction)');
      if (!raiseException(w, TRAPSTS.ILLEGAL_INST, pc)) haltWave(w, 's_code_end');
    },
  };
});

/**
 * v_illegal (GFX10.3/GFX11 VOP2 opcode 0): an illegal instruction by definition. Like any illegal
 * instruction it raises TRAPSTS.ILLEGAL_INST: the trap handler runs when installed, else the wave halts.
 */
define('v_illegal', (inst, env) => {
  const report = once(env, inst, 'gfx11.illegal-instruction', 'error');
  return {
    cls: 'other',
    run: (w) => {
      const pc = w.pc - inst.size;
      const trapped = raiseException(w, TRAPSTS.ILLEGAL_INST, pc);
      report(w, `v_illegal executed; ${trapped ? 'the trap handler runs' : 'the wave is halted (an illegal-instruction trap with no handler)'}`);
      if (!trapped) w.state = 'halted';
    },
  };
});
