/**
 * Program control (SOPP/SOP1/SOPK): end, branches, calls, PC moves, waits, barriers, sleep,
 * messages. PC rules from the wave-state seed: a branch goes to (PC of the next instruction +
 * simm16 * 4); S_GETPC returns the next instruction's address; the handler sees `w.pc` already
 * advanced to the next instruction.
 */
import type { Instruction } from '../isa/types.js';
import { SREG } from '../wave/wave.js';
import type { Wave } from '../wave/wave.js';
import { define } from './registry.js';
import { HI, sread64, swrite64 } from './operands.js';

const simm16 = (inst: Instruction): number => ((inst.fields.simm16 ?? 0) << 16) >> 16;

define('s_endpgm', () => ({ cls: 'branch', run: (w) => void (w.state = 'ended') }));
define(['s_nop', 's_delay_alu', 's_clause', 's_waitcnt_depctr', 's_set_inst_prefetch_distance', 's_icache_inv', 's_ttracedata', 's_ttracedata_imm'], () => ({
  cls: 'other',
  run: () => {},
}));

function branch(name: string, taken: (w: Wave) => boolean): void {
  define(name, (inst) => {
    const off = simm16(inst) * 4;
    return { cls: 'branch', run: (w) => void (taken(w) && (w.pc += off)) };
  });
}
const vccz = (w: Wave) => w.s[SREG.VCC_LO] === 0 && (w.waveSize === 32 || w.s[SREG.VCC_HI] === 0);
branch('s_branch', () => true);
branch('s_cbranch_scc0', (w) => w.scc === 0);
branch('s_cbranch_scc1', (w) => w.scc === 1);
branch('s_cbranch_vccz', vccz);
branch('s_cbranch_vccnz', (w) => !vccz(w));
branch('s_cbranch_execz', (w) => w.execZero());
branch('s_cbranch_execnz', (w) => !w.execZero());

define('s_getpc_b64', (inst) => {
  const d = inst.fields.sdst ?? 0;
  return { cls: 'salu', run: (w) => void swrite64(w, d, w.pc >>> 0, Math.floor(w.pc / 0x1_0000_0000)) };
});
define('s_setpc_b64', (inst) => {
  const A = sread64(inst.fields.ssrc0 ?? 0, inst.literal);
  return { cls: 'branch', run: (w) => void (w.pc = A(w) + HI[0]! * 0x1_0000_0000) };
});
define('s_swappc_b64', (inst) => {
  const A = sread64(inst.fields.ssrc0 ?? 0, inst.literal);
  const d = inst.fields.sdst ?? 0;
  return {
    cls: 'branch',
    run: (w) => {
      const target = A(w) + HI[0]! * 0x1_0000_0000;
      swrite64(w, d, w.pc >>> 0, Math.floor(w.pc / 0x1_0000_0000));
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
      swrite64(w, d, w.pc >>> 0, Math.floor(w.pc / 0x1_0000_0000));
      w.pc += off;
    },
  };
});

/** s_waitcnt (GFX11 simm16: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10]). */
define('s_waitcnt', (inst) => {
  const v = inst.fields.simm16 ?? 0;
  const exp = v & 7;
  const lgkm = (v >>> 4) & 0x3f;
  const vm = (v >>> 10) & 0x3f;
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

/** MSG ids (GFX11). */
export const MSG = { INTERRUPT: 1, GS_ALLOC_REQ: 9, ORDERED_PS_DONE: 7, DEALLOC_VGPRS: 0xb, HS_TESSFACTOR: 2, DEALLOC_VGPRS_GFX11: 0xb } as const;

define('s_sendmsg', (inst) => {
  const id = (inst.fields.simm16 ?? 0) & 0xff;
  return {
    cls: 'msg',
    run: (w) => {
      if (id === MSG.DEALLOC_VGPRS) w.vgprsReleased = true;
    },
  };
});
