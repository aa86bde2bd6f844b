/**
 * Test firmware in afuc assembly (ours, written for gpusim): a bootstrap that loads the packet
 * table from the firmware image (found through CP_SQE_INSTR_BASE) into the SQE, the `waitin`
 * idle loop, and handlers for type-4 register writes, CP_NOP, CP_MEM_WRITE, CP_WAIT_FOR_ME,
 * CP_CONTEXT_REG_BUNCH and CP_INDIRECT_BUFFER (IB1 from the ring, IB2 from IB1, through the ROQ queues). Unknown packets land in a `bad` handler that spins (as real firmware
 * does for fatal errors), which the emulator reports as a budget stop.
 */
import { gpuRegs, type Gen } from '../regs/db.js';
import { opcode } from '../cp/pm4.js';

export function testFirmwareSource(gen: Gen = 'a6xx'): string {
  const instrBase = gpuRegs(gen).reg('CP_SQE_INSTR_BASE');
  const table = new Array<string>(128).fill('bad');
  table[4] = 'pkt4';
  table[opcode('CP_NOP', gen)] = 'cp_nop';
  table[opcode('CP_MEM_WRITE', gen)] = 'cp_mem_write';
  table[opcode('CP_WAIT_FOR_ME', gen)] = 'cp_wait_for_me';
  table[opcode('CP_CONTEXT_REG_BUNCH', gen)] = 'cp_context_reg_bunch';
  table[0x3f] = 'cp_indirect_buffer';
  const rows: string[] = [];
  for (let i = 0; i < 128; i += 8) rows.push(`\t.word ${table.slice(i, i + 8).join(', ')}`);
  return `; gpusim test firmware for the afuc emulator (${gen})
start:
	mov $02, 0x2
	cwrite $02, [$00 + @REG_READ_DWORDS]
	mov $02, 0x${instrBase.toString(16)}		; CP_SQE_INSTR_BASE
	cwrite $02, [$00 + @REG_READ_ADDR]
	mov $02, $regdata
	mov $03, $regdata
	add $02, $02, @@jmptbl
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
`;
}
