/**
 * GFX11 wave-state rules (seed 001): hardware registers, traps, program control, and the
 * diagnostics for broken rules — each fires on a program that breaks it and stays quiet on one
 * that does not. Multi-wave rules (barriers, sleep, budget, DEALLOC_VGPRS) run through the real
 * dispatcher with a descriptor built in the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAsm, CODE_VA, TRAP_VA } from './exec-harness.js';
import { Memory } from '../../src/core/memory.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { assemble } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { dispatch, type DispatchConfig, type LoadedCode } from '../../src/runtime/dispatch.js';
import type { CodeObjectKernel } from '../../src/formats/amdgpu/codeobject.js';
import { HWREG, STATUS } from '../../src/amd/wave/wave.js';
import { raiseException, TRAPSTS } from '../../src/amd/exec/trap.js';

const PRIV = STATUS.PRIV;
const ids = (d: readonly { id: string }[]) => d.map((x) => x.id);

// ---- hardware registers ----------------------------------------------------------------------

test('s_getreg/s_setreg: MODE fields round-trip; s_round_mode/s_denorm_mode set FP_ROUND/FP_DENORM', () => {
  const r = runAsm(`s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s1
s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 4)
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 9), 0x1ff
s_getreg_b32 s3, hwreg(HW_REG_MODE)
s_round_mode 0x3
s_denorm_mode 0xc
s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 8)
s_endpgm`, { sgpr: { 1: 0x5 }, mode: 0xf0 });
  assert.equal(r.s(2), 5);
  assert.equal(r.s(3), (0x50 | (0x1ff << 12)) >>> 0);
  assert.equal(r.s(4), 0xc3);
  assert.equal(r.wave.hw[HWREG.MODE]! & 0xff, 0xc3);
  assert.deepEqual(ids(r.diags), []);
});

test('s_getreg STATUS shows live SCC/EXECZ/VCCZ and TRAP_EN; s_setprio sets USER_PRIO', () => {
  const r = runAsm(`s_setprio 2
s_mov_b32 vcc_lo, 0
s_cmp_eq_u32 0, 0
s_getreg_b32 s0, hwreg(HW_REG_STATUS)
s_mov_b32 exec_lo, 0
s_getreg_b32 s1, hwreg(HW_REG_STATUS, 9, 1)
s_endpgm`, { trapHandler: { source: 's_rfe_b64 ttmp[0:1]' } });
  assert.equal(r.s(0) & STATUS.SCC, 1);
  assert.equal(r.s(0) & STATUS.VCCZ, STATUS.VCCZ);
  assert.equal(r.s(0) & STATUS.EXECZ, 0);
  assert.equal(r.s(0) & STATUS.TRAP_EN, STATUS.TRAP_EN);
  assert.equal((r.s(0) & STATUS.USER_PRIO) >>> 3, 2);
  assert.equal(r.s(1), 1); // EXECZ after EXEC=0
});

test('read-only registers: HW_ID1/2, GPR_ALLOC, LDS_ALLOC, SH_MEM_BASES, IB_STS, FLAT_SCRATCH; SHADER_CYCLES is a 20-bit clock', () => {
  const r = runAsm(`s_getreg_b32 s0, hwreg(HW_REG_GPR_ALLOC, 12, 8)
s_getreg_b32 s1, hwreg(HW_REG_LDS_ALLOC, 12, 9)
s_getreg_b32 s2, hwreg(HW_REG_SH_MEM_BASES)
s_getreg_b32 s3, hwreg(HW_REG_HW_ID1)
s_getreg_b32 s4, hwreg(HW_REG_FLAT_SCR_LO)
s_getreg_b32 s5, hwreg(HW_REG_SHADER_CYCLES)
s_endpgm`, { vgprs: 64, ldsBytes: 4096 });
  assert.equal(r.s(0), 64 / 4 - 1); // VGPR_SIZE: 4-VGPR granules minus one
  assert.equal(r.s(1), 4096 / 256);
  assert.equal(r.s(2) & 0xffff, r.s(237) >>> 16); // PRIVATE_BASE [15:0] = aperture bits [63:48]
  assert.equal(r.s(2) >>> 16, r.s(235) >>> 16);
  assert.equal(r.s(3), 0); // wave 0 in slot 0
  assert.equal(r.s(4), 0); // no scratch
  assert.equal(r.s(5), 5); // the 6th instruction issues at clock 5
  // 130 sleeps of 64*127 clocks: the counter wraps at 2^20.
  const sleeps = Array.from({ length: 130 }, () => 's_sleep 127').join('\n');
  const w = runAsm(`${sleeps}\ns_getreg_b32 s0, hwreg(HW_REG_SHADER_CYCLES)\ns_endpgm`);
  assert.equal(w.s(0), (130 * 64 * 127) % (1 << 20));
});

test('gfx11.hwreg.write-readonly fires for read-only fields and leaves them; MODE/TRAPSTS writes are quiet', () => {
  const bad = runAsm('s_setreg_b32 hwreg(HW_REG_HW_ID1), s0\ns_getreg_b32 s1, hwreg(HW_REG_HW_ID1)\ns_endpgm', { sgpr: { 0: 0xffffffff } });
  assert.deepEqual(ids(bad.diags), ['gfx11.hwreg.write-readonly']);
  assert.equal(bad.s(1), 0);
  const ok = runAsm('s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\ns_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 9), s0\ns_endpgm', { sgpr: { 0: 1 } });
  assert.deepEqual(ids(ok.diags), []);
  assert.equal(ok.wave.hw[HWREG.TRAPSTS], 1);
});

test('gfx11.hwreg.write-priv: STATUS and FLAT_SCRATCH are writable only in the trap handler', () => {
  const user = runAsm('s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 13, 1), 1\ns_getreg_b32 s0, hwreg(HW_REG_STATUS)\ns_endpgm');
  assert.deepEqual(ids(user.diags), ['gfx11.hwreg.write-priv']);
  assert.equal(user.s(0) & STATUS.HALT, 0);
  const priv = runAsm('s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 13, 1), 1\ns_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x1000\ns_getreg_b32 s0, hwreg(HW_REG_STATUS)\ns_endpgm', { status: PRIV });
  assert.deepEqual(ids(priv.diags), []);
  assert.equal(priv.s(0) & STATUS.HALT, STATUS.HALT);
  assert.equal(priv.wave.scratchBase, 0x1000);
  // Writing PRIV=0 through STATUS leaves the handler's privilege (and TTMP access) behind.
  const drop = runAsm('s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 5, 1), 0\ns_mov_b32 ttmp0, 5\ns_endpgm', { status: PRIV });
  assert.equal(drop.wave.priv, false);
  assert.deepEqual(ids(drop.diags), ['gfx11.ttmp.write-user']);
});

test('s_getreg of an id GFX11 does not have reads 0 with gfx11.hwreg.unknown', () => {
  const r = runAsm('s_getreg_b32 s0, hwreg(10)\ns_endpgm', { sgpr: { 0: 7 } });
  assert.equal(r.s(0), 0);
  assert.deepEqual(ids(r.diags), ['gfx11.hwreg.unknown']);
});

// ---- register-file rules -----------------------------------------------------------------------

test('gfx11.sgpr.misaligned fires for an odd 64-bit SGPR operand (LSB ignored) and not for an even one', () => {
  // s_mov_b64 s[1:2], s[4:5]: the assembler refuses the odd pair, so the word is hard-coded.
  const bad = runAsm('.long 0xbe810104 // s_mov_b64 s[1:2], s[4:5]\ns_endpgm', { sgpr: { 4: 0x44, 5: 0x55, 2: 0x22 } });
  assert.deepEqual(ids(bad.diags), ['gfx11.sgpr.misaligned']);
  assert.deepEqual([bad.s(0), bad.s(1), bad.s(2)], [0x44, 0x55, 0x22]); // writes s[0:1]
  const ok = runAsm('s_mov_b64 s[2:3], s[4:5]\ns_endpgm');
  assert.deepEqual(ids(ok.diags), []);
});

test('gfx11.ttmp.write-user: TTMP writes outside the trap handler are ignored (SCC kept) and reported', () => {
  const bad = runAsm('s_add_u32 ttmp2, s0, s1\ns_endpgm', { sgpr: { 0: 0xffffffff, 1: 1, 110: 9 } });
  assert.deepEqual(ids(bad.diags), ['gfx11.ttmp.write-user']);
  assert.equal(bad.s(110), 9);
  assert.equal(bad.wave.scc, 0);
  const ok = runAsm('s_add_u32 ttmp2, s0, s1\ns_endpgm', { sgpr: { 0: 0xffffffff, 1: 1 }, status: PRIV });
  assert.deepEqual(ids(ok.diags), []);
  assert.equal(ok.s(110), 0);
  assert.equal(ok.wave.scc, 1);
});

test('gfx11.movrel.out-of-range: a source past VCC_HI reads s0; a destination past TTMP15 writes nothing', () => {
  const src = runAsm('s_movrels_b32 s1, s100\ns_endpgm', { sgpr: { 0: 0x55, 125: 10, 110: 0x99 } });
  assert.deepEqual(ids(src.diags), ['gfx11.movrel.out-of-range']);
  assert.equal(src.s(1), 0x55);
  const src64 = runAsm('s_movrels_b64 s[2:3], s[104:105]\ns_endpgm', { sgpr: { 0: 1, 1: 2, 106: 7, 107: 8, 125: 2 } });
  assert.deepEqual([src64.s(2), src64.s(3)], [7, 8]); // s[106:107] = VCC is in range for 64-bit
  const src64b = runAsm('s_movrels_b64 s[2:3], s[104:105]\ns_endpgm', { sgpr: { 0: 1, 1: 2, 125: 4 } });
  assert.deepEqual([src64b.s(2), src64b.s(3)], [1, 2]); // s[108:109] would cross into TTMP: s[0:1]
  const dst = runAsm('s_movreld_b32 ttmp0, s0\ns_endpgm', { sgpr: { 0: 0x55, 125: 16 }, status: PRIV });
  assert.deepEqual(ids(dst.diags), ['gfx11.movrel.out-of-range']);
  assert.equal(dst.s(124), 0);
  assert.equal(dst.s(125), 16); // M0 untouched
  const dstS = runAsm('s_movreld_b32 s100, s0\ns_endpgm', { sgpr: { 0: 0x55, 125: 8 } });
  assert.deepEqual(ids(dstS.diags), ['gfx11.movrel.out-of-range']);
  assert.equal(dstS.s(108), 0);
  const inTtmp = runAsm('s_movreld_b32 ttmp0, s0\ns_endpgm', { sgpr: { 0: 0x55, 125: 15 }, status: PRIV });
  assert.deepEqual(ids(inTtmp.diags), []);
  assert.equal(inTtmp.s(123), 0x55);
});

// ---- traps -------------------------------------------------------------------------------------

const HANDLER = `s_mov_b32 s10, ttmp0
s_mov_b32 s11, ttmp1
s_getreg_b32 s12, hwreg(HW_REG_STATUS)
s_getreg_b32 s13, hwreg(HW_REG_TRAPSTS)
s_sendmsg_rtn_b64 s[14:15], sendmsg(MSG_RTN_GET_TMA)
s_sendmsg_rtn_b64 s[16:17], sendmsg(MSG_RTN_GET_TBA)
s_add_u32 ttmp0, ttmp0, 4
s_addc_u32 ttmp1, ttmp1, 0
s_and_b32 ttmp1, ttmp1, 0xffff
s_rfe_b64 ttmp[0:1]`;

test('s_trap enters the handler: TTMP1:0 = {trap id, own PC}, STATUS.PRIV, TBA/TMA readable; s_rfe returns', () => {
  const r = runAsm('s_nop 0\ns_trap 5\ns_mov_b32 s20, 7\ns_getreg_b32 s21, hwreg(HW_REG_STATUS)\ns_endpgm', { trapHandler: { source: HANDLER, tma: 0x1234_5678_9000 } });
  const pc = CODE_VA + 4;
  assert.equal(r.s(10), pc >>> 0);
  assert.equal(r.s(11), ((Math.floor(pc / 2 ** 32) & 0xffff) | (5 << 16)) >>> 0);
  assert.equal(r.s(12) & PRIV, PRIV);
  assert.deepEqual([r.s(14), r.s(15)], [0x5678_9000, 0x1234]);
  assert.deepEqual([r.s(16), r.s(17)], [TRAP_VA >>> 0, Math.floor(TRAP_VA / 2 ** 32)]);
  assert.equal(r.s(20), 7); // returned after the s_trap
  assert.equal(r.s(21) & PRIV, 0);
  assert.deepEqual(ids(r.diags), []);
});

test('s_trap is a NOP without a trap handler (STATUS.TRAP_EN=0)', () => {
  const r = runAsm('s_trap 2\ns_mov_b32 s0, 1\ns_endpgm');
  assert.equal(r.s(0), 1);
  assert.equal(r.wave.priv, false);
  assert.deepEqual(ids(r.diags), []);
});

test('gfx11.code-end.executed: s_code_end halts without a handler, traps (ILLEGAL_INST) with one', () => {
  const bad = runAsm('s_mov_b32 s0, 1\ns_code_end\ns_mov_b32 s1, 1\ns_endpgm');
  assert.deepEqual(ids(bad.diags), ['gfx11.code-end.executed']);
  assert.equal(bad.wave.state, 'halted');
  assert.equal(bad.s(1), 0);
  const trapped = runAsm('s_code_end\ns_mov_b32 s1, 1\ns_endpgm', { trapHandler: { source: HANDLER } });
  assert.deepEqual(ids(trapped.diags), ['gfx11.code-end.executed']);
  assert.equal(trapped.s(13) & TRAPSTS.ILLEGAL_INST, TRAPSTS.ILLEGAL_INST);
  assert.equal(trapped.s(11) >>> 16, 0); // TRAP_ID 0 for exceptions
  assert.equal(trapped.s(1), 1); // the handler skipped the bad word
  const quiet = runAsm('s_mov_b32 s0, 1\ns_endpgm\ns_code_end');
  assert.deepEqual(ids(quiet.diags), []);
});

test('exceptions: EXCP_EN masks the arithmetic ones; MEMVIOL and illegal instructions always trap; none without a handler', () => {
  const base = runAsm('s_endpgm', { trapHandler: { source: 's_endpgm' } });
  const w = base.wave;
  w.state = 'ready';
  assert.equal(raiseException(w, TRAPSTS.EXCP_DIV0, 0x100), false); // EXCP_EN clear: recorded only
  assert.equal(w.hw[HWREG.TRAPSTS]! & TRAPSTS.EXCP_DIV0, TRAPSTS.EXCP_DIV0);
  w.hw[HWREG.MODE] = (w.hw[HWREG.MODE]! | (TRAPSTS.EXCP_DIV0 << 12)) >>> 0;
  assert.equal(raiseException(w, TRAPSTS.EXCP_DIV0, 0x100), true);
  assert.equal(w.pc, TRAP_VA);
  assert.equal(w.s[108], 0x100);
  assert.equal(raiseException(w, TRAPSTS.EXCP_MEM_VIOL, 0x200), false); // inside the handler: no nesting
  w.hw[HWREG.STATUS] = w.hw[HWREG.STATUS]! & ~PRIV;
  w.hw[HWREG.MODE] = 0;
  assert.equal(raiseException(w, TRAPSTS.EXCP_MEM_VIOL, 0x200), true);
  const none = runAsm('s_endpgm').wave;
  assert.equal(raiseException(none, TRAPSTS.EXCP_MEM_VIOL, 0x200), false);
});

test('an illegal encoding halts the wave (gfx11.illegal-instruction) or runs the trap handler', () => {
  // 0xbf9f0001 is s_code_end's opcode with a nonzero immediate? use a reserved SOPP opcode instead.
  const word = '.long 0xbffe0000 // SOPP opcode 126 (reserved)';
  const bad = runAsm(`${word}\ns_mov_b32 s1, 1\ns_endpgm`);
  assert.deepEqual(ids(bad.diags), ['gfx11.illegal-instruction']);
  assert.equal(bad.wave.state, 'halted');
  const t = runAsm(`${word}\ns_mov_b32 s1, 1\ns_endpgm`, { trapHandler: { source: HANDLER } });
  assert.equal(t.s(13) & TRAPSTS.ILLEGAL_INST, TRAPSTS.ILLEGAL_INST);
  assert.equal(t.s(10), CODE_VA >>> 0); // the faulting PC
  assert.equal(t.s(1), 1);
});

test('gfx11.trap.rfe-user: s_rfe_b64 outside a trap handler', () => {
  const bad = runAsm('s_getpc_b64 s[0:1]\ns_add_u32 s0, s0, 8\ns_rfe_b64 s[0:1]\ns_endpgm');
  assert.deepEqual(ids(bad.diags), ['gfx11.trap.rfe-user']);
});

// ---- messages, sleep, halt ------------------------------------------------------------------

test('s_round_mode and s_setreg MODE.FP_ROUND take effect for the next VALU instruction', () => {
  const b = 3 * 2 ** -25; // 1 + b lies 0.75 ulp above 1.0
  const want = [1 + 2 ** -23, 1 + 2 ** -23, 1, 1]; // nearest-even, +inf, -inf, toward zero
  for (const m of [0, 1, 2, 3]) {
    const r = runAsm(`s_round_mode ${m}\nv_add_f32 v2, v0, v1\ns_round_mode 0\ns_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), ${m}\nv_add_f32 v3, v0, v1\ns_endpgm`, { vgprF32: { 0: 1, 1: b } });
    assert.equal(r.vf(2), want[m], `s_round_mode ${m}`);
    assert.equal(r.vf(3), want[m], `s_setreg FP_ROUND ${m}`);
  }
});

test('gfx11.sendmsg.unknown: a message id GFX11 does not define; known compute messages are quiet', () => {
  const bad = runAsm('s_sendmsg 0x42\ns_endpgm');
  assert.deepEqual(ids(bad.diags), ['gfx11.sendmsg.unknown']);
  const ok = runAsm('s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm');
  assert.deepEqual(ids(ok.diags), []);
});

test('STATUS.NO_VGPRS reports MSG_DEALLOC_VGPRS', () => {
  const r = runAsm('s_getreg_b32 s0, hwreg(HW_REG_STATUS, 24, 1)\ns_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\ns_getreg_b32 s1, hwreg(HW_REG_STATUS, 24, 1)\ns_endpgm');
  assert.deepEqual([r.s(0), r.s(1)], [0, 1]);
});

test('s_sendmsg_rtn: REALTIME runs at 100 MHz of a 2.5 GHz model clock; LGKM_CNT counts the reply', () => {
  const nops = Array.from({ length: 50 }, () => 's_nop 0').join('\n');
  const r = runAsm(`${nops}\ns_sendmsg_rtn_b64 s[0:1], sendmsg(MSG_RTN_GET_REALTIME)\ns_sendmsg_rtn_b32 s2, sendmsg(MSG_RTN_GET_DOORBELL)\ns_getreg_b32 s3, hwreg(HW_REG_IB_STS, 8, 4)\ns_waitcnt lgkmcnt(0)\ns_getreg_b32 s4, hwreg(HW_REG_IB_STS, 8, 4)\ns_endpgm`);
  assert.deepEqual([r.s(0), r.s(1)], [2, 0]); // issued at clock 50: floor(50 / 25)
  assert.equal(r.s(3), 2);
  assert.equal(r.s(4), 0);
});

test('s_sleep stops the wave for 64*N clocks; s_wait_idle clears the counters', () => {
  const r = runAsm('s_sleep 3\ns_getreg_b32 s0, hwreg(HW_REG_SHADER_CYCLES)\ns_endpgm');
  assert.equal(r.s(0), 192);
  const z = runAsm('s_sleep 0\ns_getreg_b32 s0, hwreg(HW_REG_SHADER_CYCLES)\ns_endpgm');
  assert.equal(z.s(0), 1);
});

test('gfx11.wave.halted: s_sethalt 1 halts the wave; s_sethalt 0 does nothing', () => {
  const bad = runAsm('s_sethalt 1\ns_mov_b32 s0, 1\ns_endpgm');
  assert.deepEqual(ids(bad.diags), ['gfx11.wave.halted']);
  assert.equal(bad.wave.state, 'halted');
  assert.equal(bad.s(0), 0);
  const ok = runAsm('s_sethalt 0\ns_mov_b32 s0, 1\ns_endpgm');
  assert.deepEqual(ids(ok.diags), []);
  assert.equal(ok.s(0), 1);
});

// ---- through the dispatcher ------------------------------------------------------------------

const KCODE = 0x6000_0000_0000;

/** Resolve `name:` labels in branch operands (the assembler takes numeric SIMM16 offsets). */
function withLabels(src: string): string {
  const lines = src.split('\n');
  const labels = new Map<string, number>();
  const body: { text: string; at: number }[] = [];
  let at = 0;
  for (const l of lines) {
    const m = /^\s*([A-Za-z_]\w*):\s*$/.exec(l);
    if (m) {
      labels.set(m[1]!, at);
      continue;
    }
    if (l.trim() === '') continue;
    body.push({ text: l, at });
    at += assemble(gfx11, l.replace(/\b(s_branch|s_cbranch_\w+)\s+[A-Za-z_]\w*/, '$1 0')).length * 4;
  }
  return body.map(({ text, at: pc }) => text.replace(/\b(s_branch|s_cbranch_\w+)\s+([A-Za-z_]\w*)/, (_m, op: string, name: string) => {
    const to = labels.get(name);
    if (to === undefined) throw new Error(`unknown label ${name}`);
    return `${op} ${(to - (pc + 4)) / 4}`;
  })).join('\n');
}

/** Run assembly as a kernel: s[0:1] = `buf` (kernarg pointer slot), v0 = work-item id x. */
function runKernel(src: string, o: { block: number; grid?: number; waveSize?: 32 | 64; maxInstructions?: number; order?: 'roundrobin' | 'random'; trap?: string; bufBytes?: number } = { block: 32 }) {
  const words = Uint32Array.from(assemble(gfx11, withLabels(src)));
  const mem = new Memory();
  mem.map(KCODE, Math.ceil((words.length * 4) / 4096) * 4096 || 4096, 'code');
  mem.writeBytes(KCODE, new Uint8Array(words.buffer.slice(0)));
  const buf = mem.alloc(o.bufBytes ?? 256, 'buf');
  const diag = new Diagnostics({ strict: false });
  const ws = o.waveSize ?? 32;
  const kernel = {
    name: 'k', entryAddress: 0,
    kd: {
      generation: 'gfx11', group_segment_fixed_size: 0, rsrc1: {},
      derived: { waveSize: ws, vgprs: 16, userSgprs: [{ name: 'kernarg_segment_ptr', reg: 0, count: 2 }], systemSgprs: [], workitemIdMode: 0 },
    },
  } as unknown as CodeObjectKernel;
  const code = { co: null, loadBase: KCODE, textVa: KCODE, words } as unknown as LoadedCode;
  const trapWords = o.trap ? Uint32Array.from(assemble(gfx11, o.trap)) : null;
  const cfg: DispatchConfig = {
    grid: [o.grid ?? o.block, 1, 1], block: [o.block, 1, 1], kernargVa: buf.base, dynamicLds: 0,
    order: o.order ?? 'roundrobin', seed: 1, maxInstructions: o.maxInstructions ?? 100000,
    dispatchPacketVa: 0, queueVa: 0, scratchPerLane: 0, waitcnt: false,
    ...(trapWords ? { trapHandler: { code: trapWords, tba: 0x6100_0000_0000, tma: 0 } } : {}),
  };
  const stats = dispatch(gfx11, code, kernel, mem, diag, cfg);
  return { stats, diags: diag.list, mem, buf: buf.base };
}

const WAVE_ID = `v_readfirstlane_b32 s2, v0
s_cmp_eq_u32 s2, 0`;

test('s_sleep lets the other waves run: a sleeping reader sees the store of a later wave', () => {
  const prog = (wait: string) => `${WAVE_ID}
s_cbranch_scc0 writer
${wait}
v_mov_b32 v1, 0
global_load_b32 v2, v1, s[0:1]
s_waitcnt vmcnt(0)
global_store_b32 v1, v2, s[0:1] offset:4
s_endpgm
writer:
v_mov_b32 v1, 0
v_mov_b32 v2, 42
global_store_b32 v1, v2, s[0:1]
s_endpgm`;
  const slept = runKernel(prog('s_sleep 4'), { block: 64 });
  assert.deepEqual(ids(slept.diags), []);
  assert.equal(slept.mem.read32(slept.buf + 4), 42);
  const eager = runKernel(prog('s_nop 0'), { block: 64 });
  assert.equal(eager.mem.read32(eager.buf + 4), 0); // round-robin: wave 0 reads before wave 1 stores
});

test('s_wakeup ends the sleep of the other waves of the workgroup', () => {
  const r = runKernel(`${WAVE_ID}
s_cbranch_scc0 waker
s_sleep 127
s_getreg_b32 s3, hwreg(HW_REG_SHADER_CYCLES)
v_mov_b32 v1, 0
v_mov_b32 v2, s3
global_store_b32 v1, v2, s[0:1]
s_endpgm
waker:
s_wakeup
s_endpgm`, { block: 64 });
  assert.ok(r.mem.read32(r.buf) < 64 * 127, `woke at ${r.mem.read32(r.buf)}`);
});

test('gfx11.vgpr.use-after-dealloc: only s_endpgm may follow MSG_DEALLOC_VGPRS', () => {
  const bad = runKernel('s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\nv_mov_b32 v1, 0\ns_endpgm', { block: 32 });
  assert.deepEqual(ids(bad.diags), ['gfx11.vgpr.use-after-dealloc']);
  const ok = runKernel('s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\ns_endpgm', { block: 32 });
  assert.deepEqual(ids(ok.diags), []);
});

test('gpusim.instruction-budget stops a runaway wave; a finite loop stays quiet', () => {
  const bad = runKernel('loop:\ns_branch loop', { block: 32, maxInstructions: 500 });
  assert.deepEqual(ids(bad.diags), ['gpusim.instruction-budget']);
  assert.equal(bad.stats.aborted, true);
  const ok = runKernel('s_mov_b32 s4, 20\nloop:\ns_sub_u32 s4, s4, 1\ns_cmp_lg_u32 s4, 0\ns_cbranch_scc1 loop\ns_endpgm', { block: 32, maxInstructions: 500 });
  assert.deepEqual(ids(ok.diags), []);
  assert.equal(ok.stats.aborted, false);
});

test('gfx11.barrier.deadlock: waves wait at s_barrier while another is halted; barriers with ended waves complete', () => {
  const bad = runKernel(`${WAVE_ID}
s_cbranch_scc0 waiter
s_sethalt 1
waiter:
s_barrier
s_endpgm`, { block: 64 });
  assert.ok(ids(bad.diags).includes('gfx11.barrier.deadlock'), ids(bad.diags).join(','));
  assert.equal(bad.stats.aborted, true);
  // Ended waves do not count: the remaining waves pass the barrier.
  const ok = runKernel(`${WAVE_ID}
s_cbranch_scc0 waiter
s_endpgm
waiter:
s_barrier
s_endpgm`, { block: 96, order: 'random' });
  assert.deepEqual(ids(ok.diags), []);
  assert.equal(ok.stats.aborted, false);
});

test('a dispatch trap handler runs for s_trap in every wave', () => {
  const r = runKernel(`s_trap 1
v_mov_b32 v1, 0
v_mov_b32 v2, s5
global_store_b32 v1, v2, s[0:1]
s_endpgm`, { block: 32, trap: `s_mov_b32 s5, 0x77
s_add_u32 ttmp0, ttmp0, 4
s_addc_u32 ttmp1, ttmp1, 0
s_and_b32 ttmp1, ttmp1, 0xffff
s_rfe_b64 ttmp[0:1]` });
  assert.deepEqual(ids(r.diags), []);
  assert.equal(r.mem.read32(r.buf), 0x77);
});
