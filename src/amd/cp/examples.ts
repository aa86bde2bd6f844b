/**
 * Example PM4 streams: one per generation using every packet the handler table knows (the
 * decode goldens, the coverage report and the fuzzer's seed). Memory it expects when executed:
 * 0x200000.. (argument and register images), 0x300000 (a 2-dword IB), 0x400000 (results; a
 * non-zero dword at 0x400000 for the predication and COND_EXEC checks; an occlusion query block
 * at 0x400100, which a CP given zpassCounts fills).
 */
import { Pm4Builder } from './builder.js';
import { IT } from './pm4.js';
import { regDb, type Pm4Gen } from './regdb.js';

/** A stream using every handled packet. */
export function everyPacket(gen: Pm4Gen): Pm4Builder {
  const b = new Pm4Builder(gen);
  b.contextControl().clearState()
    .setContextReg('DB_SHADER_CONTROL', b.encode('DB_SHADER_CONTROL', { Z_ORDER: 'EARLY_Z_THEN_LATE_Z' }))
    .setShReg('COMPUTE_NUM_THREAD_X', 64, 1, 1)
    .setShReg('COMPUTE_PGM_RSRC2', b.encode('COMPUTE_PGM_RSRC2', { USER_SGPR: 6, TGID_X_EN: 1 }))
    .setUconfigReg('VGT_PRIMITIVE_TYPE', b.encode('VGT_PRIMITIVE_TYPE', { PRIM_TYPE: 'DI_PT_TRILIST' }))
    .setUconfigRegIndex('VGT_INDEX_TYPE', 2, 1)
    .setShRegIndex('COMPUTE_USER_DATA_0', 0, 0x1234)
    .setConfigReg(regDb(gen).regs.find((r) => r.space === 'config')!.name, 0)
    .indexType(1).numInstances(2).indexBase(0x100000).indexBufferSize(3)
    .drawIndexAuto(3).drawIndex2(3, 0x100000, 3)
    .setBase(1, 0x200000).drawIndirect(0).drawIndexIndirect(16)
    .drawIndirectMulti(false, { dataOffset: 0, count: 1, stride: 16 }).drawIndirectMulti(true, { dataOffset: 16, count: 1, stride: 20 })
    .dispatchDirect(1, 1, 1).dispatchIndirect({ dataOffset: 0 }).dispatchIndirect({ va: 0x200000 })
    .indirectBuffer(0x300000, 2)
    .writeMem(0x400000, 1, 2).copyData(5, 7, 5, 0x400010)
    .eventWrite('CS_PARTIAL_FLUSH', 4)
    .eventWriteEop('BOTTOM_OF_PIPE_TS', 0x400020, 1, 5)
    .releaseMem('BOTTOM_OF_PIPE_TS', 0x400028, 2, 6, 7)
    .acquireMem().waitRegMem(1, 3, 0x400000, 1).pfpSyncMe()
    // Register loads (enabled by CONTEXT_CONTROL's load bits): LOAD_*_REG read an image of their space at 0x200000, the _INDEX forms read at the address.
    .contextControl(0x80000000 | 1 | 2 | 1 << 15 | 1 << 16 | 1 << 24)
    .loadReg('context', 0x200000, [['DB_SHADER_CONTROL', 1], ['PA_SC_AA_CONFIG', 1]]).loadReg('sh', 0x200000, [['COMPUTE_USER_DATA_1', 2]])
    .loadReg('uconfig', 0x200000, [['VGT_PRIMITIVE_TYPE', 1]]).loadReg('config', 0x200000, [[regDb(gen).regs.find((r) => r.space === 'config')!.name, 1]])
    .loadRegIndex('context', 0x400000, 'PA_SC_AA_CONFIG', 1).loadRegIndex('sh', 0x400000, 'COMPUTE_USER_DATA_2', 2)
    // Predication on the value at 0x400000 (non-zero): the predicated NOP runs; COND_EXEC does not skip.
    .setPredication(3, 0x400000).pkt3(IT.NOP!, [0], { predicate: true }).setPredication(0)
    // An occlusion query around nothing (begin at 0x400100, end at +8) and ZPASS predication on it.
    .zpassDump(0x400100).zpassDump(0x400108, { packet: gen === 'gfx11' })
    .setPredication(1, 0x400100, { drawVisible: false }).pkt3(IT.NOP!, [0], { predicate: true }).setPredication(0)
    .condExec(0x400000, 2).nop(1);
  if (gen === 'gfx11') {
    b.setRegPairs('context', [['PA_SC_AA_CONFIG', 0], ['DB_SHADER_CONTROL', 0x10]])
      .setRegPairs('sh', [['COMPUTE_USER_DATA_3', 3], ['COMPUTE_USER_DATA_5', 5]])
      .setRegPairs('context', [['PA_SC_AA_CONFIG', 0], ['DB_SHADER_CONTROL', 0x10], ['DB_RENDER_CONTROL', 0]], { packed: true })
      .setRegPairs('sh', [['COMPUTE_USER_DATA_3', 3], ['COMPUTE_USER_DATA_5', 5]], { packed: true })
      .setRegPairs('sh', [['COMPUTE_USER_DATA_3', 3], ['COMPUTE_USER_DATA_7', 7]], { packed: true, n: true });
  }
  b.nop(2).nop(0);
  return b;
}

