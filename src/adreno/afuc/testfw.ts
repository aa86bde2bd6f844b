/**
 * Test firmware in afuc assembly (ours, written for gpusim): a bootstrap that loads the packet
 * table from the firmware image (found through CP_SQE_INSTR_BASE) into the SQE, the `waitin`
 * idle loop, and handlers for type-4 register writes, CP_NOP, CP_MEM_WRITE, CP_WAIT_FOR_ME,
 * CP_CONTEXT_REG_BUNCH and CP_INDIRECT_BUFFER (IB1 from the ring, IB2 from IB1, through the ROQ queues). Unknown packets land in a `bad` handler that spins (as real firmware
 * does for fatal errors), which the emulator reports as a budget stop.
 */
import { gpuRegs, type Gen } from '../regs/db.js';
import { opcode } from '../cp/pm4.js';
import { assemble } from './isa.js';
import { firmwareFileBytes, fwIdInfo, versionWord } from './fwfile.js';

export interface TestFwOptions {
  /** Firmware-file layout: image word 0 = version (id, release), word 1 = the jump table offset literal. */
  readonly header?: { readonly fwId: number; readonly release: number };
  /** a7xx: the SQE bootstrap starts a BV image appended after its own (label `bv_start`, 32-byte aligned). */
  readonly bvStart?: boolean;
  /** Assemble as the BV microcode: it finds its image through the BV_INSTR_BASE control register. */
  readonly processor?: 'SQE' | 'BV';
}

export function testFirmwareSource(gen: Gen = 'a6xx', opts: TestFwOptions = {}): string {
  const instrBase = gpuRegs(gen).reg('CP_SQE_INSTR_BASE');
  const bv = opts.processor === 'BV';
  const head = opts.header ? `\t[${versionWord(opts.header.fwId, opts.header.release, gen).toString(16).padStart(8, '0')}]\t\t; version\n\t[#jmptbl]\n` : '';
  // Where this image starts: the SQE reads the GPU register, BV its control register.
  const findSelf = bv
    ? `\tcread $02, [$00 + @BV_INSTR_BASE]\n\tcread $03, [$00 + @BV_INSTR_BASE+1]\n`
    : `\tmov $02, 0x2
	cwrite $02, [$00 + @REG_READ_DWORDS]
	mov $02, 0x${instrBase.toString(16)}		; CP_SQE_INSTR_BASE
	cwrite $02, [$00 + @REG_READ_ADDR]
	mov $02, $regdata
	mov $03, $regdata
`;
  const startBv = opts.bvStart
    ? `\tadd $05, $02, @@bv_start		; BV_INSTR_BASE = this image + bv_start
	addhi $06, $03, $00
	cwrite $05, [$00 + @BV_INSTR_BASE]
	cwrite $06, [$00 + @BV_INSTR_BASE+1]
`
    : '';
  const table = new Array<string>(128).fill('bad');
  table[4] = 'pkt4';
  table[opcode('CP_NOP', gen)] = 'cp_nop';
  table[opcode('CP_MEM_WRITE', gen)] = 'cp_mem_write';
  table[opcode('CP_WAIT_FOR_ME', gen)] = 'cp_wait_for_me';
  table[opcode('CP_CONTEXT_REG_BUNCH', gen)] = 'cp_context_reg_bunch';
  table[0x3f] = 'cp_indirect_buffer';
  const rows: string[] = [];
  for (let i = 0; i < 128; i += 8) rows.push(`\t.word ${table.slice(i, i + 8).join(', ')}`);
  return `; gpusim test firmware for the afuc emulator (${gen}${bv ? ', BV' : ''})
${head}start:
${findSelf}${startBv}	add $02, $02, @@jmptbl
	addhi $03, $03, $00
	cwrite $02, [$00 + @MEM_READ_ADDR]
	cwrite $03, [$00 + @MEM_READ_ADDR+1]
	mov $04, 0x80
	cwrite $04, [$00 + @MEM_READ_DWORDS]
	cwrite $00, [$00 + @PACKET_TABLE_WRITE_ADDR]
	mov $rem, 0x80
	(rep)cwrite $memdata, [$00 + @PACKET_TABLE_WRITE]
idle:
	waitin
	mov $01, $data

pkt4:					; type 4: registers from bits 8..25 of the header
	ushr $02, $01, 0x8
	shl $02, $02, 0xe
	ushr $02, $02, 0xe
	mov $usraddr, $02
	(rep)mov $data, $data
	waitin
	mov $01, $data

cp_nop:
	(rep)mov $00, $data
	waitin
	mov $01, $data

cp_mem_write:				; NRT_ADDR <- address, then NRT_DATA for each dword
	mov $02, $data
	mov $03, $data
	mov $addr, 0xa0 << 24
	mov $data, $02
	mov $data, $03
	mov $addr, 0xa2 << 24
	(rep)mov $data, $data
	waitin
	mov $01, $data

cp_wait_for_me:				; WFI_PEND_INCR now, WFI_PEND_DECR down the pipe, spin until 0
	cwrite $00, [$00 + @WFI_PEND_INCR]
	mov $addr, 0x81 << 24
wfm_loop:
	cread $02, [$00 + @WFI_PEND_CTR]
	brne $02, 0x0, #wfm_loop
	nop
	waitin
	mov $01, $data

cp_context_reg_bunch:			; (register, value) pairs
	(rep)(xmov1)mov $usraddr, $data
	waitin
	mov $01, $data

cp_indirect_buffer:			; start IB1 from the ring, IB2 from IB1
	mov $02, $data
	mov $03, $data
	mov $04, $data
	cread $05, [$00 + @IB_LEVEL]
	brne $05, 0x0, #ib2
	nop
	cwrite $02, [$00 + @IB1_BASE]
	cwrite $03, [$00 + @IB1_BASE+1]
	cwrite $04, [$00 + @IB1_DWORDS]
	waitin
	mov $01, $data
ib2:
	cwrite $02, [$00 + @IB2_BASE]
	cwrite $03, [$00 + @IB2_BASE+1]
	cwrite $04, [$00 + @IB2_DWORDS]
	waitin
	mov $01, $data

bad:
	jump #bad
	nop

jmptbl:
${rows.join('\n')}
${opts.bvStart ? '\t.align 32\nbv_start:\n' : ''}`;
}

/**
 * A test firmware file in the released layout (leading zero dword, version, jump table literal),
 * for a firmware id from FW_IDS; a7xx files carry a BV image after the SQE one, as released a7xx
 * firmware does.
 */
export function testFirmwareFile(fwId: number, release = 0x100): Uint8Array {
  const info = fwIdInfo(fwId);
  if (!info || info.gen === 'a5xx') throw new Error(`no test firmware layout for id 0x${fwId.toString(16)}`);
  if (info.controlDomain !== (info.gen === 'a7xx' ? 'A7XX_CONTROL_REG' : 'A6XX_CONTROL_REG')) throw new Error(`the assembler has no ${info.controlDomain} names`);
  const header = { fwId, release };
  if (info.gen === 'a6xx') return firmwareFileBytes(assemble(testFirmwareSource('a6xx', { header }), 'a6xx'));
  const sqe = assemble(testFirmwareSource('a7xx', { header, bvStart: true }), 'a7xx');
  const bvImg = assemble(testFirmwareSource('a7xx', { processor: 'BV' }), 'a7xx');
  const img = new Uint32Array(sqe.length + bvImg.length);
  img.set(sqe);
  img.set(bvImg, sqe.length);
  return firmwareFileBytes(img);
}
