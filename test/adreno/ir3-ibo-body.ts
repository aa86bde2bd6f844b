/**
 * The ir3 body of the texture/image tests (sp-tex, gmem-input-attachments): load two dwords per
 * fiber from IBO 1 into r1/r2, run `op`, store r3 to IBO 0 at the fiber's dword.
 */
export const BODY = (op: string): string => `shl.b r4.x, r0.x, 3
shl.b r4.y, r0.x, 2
(rpt5)nop
add.u r4.z, r4.x, 4
(rpt5)nop
ldib.b.untyped.1d.u32.4.imm r1.x, r4.x, 1
ldib.b.untyped.1d.u32.4.imm r2.x, r4.z, 1
(rpt5)nop
(sy)${op}
(rpt5)nop
(sy)stib.b.untyped.1d.u32.4.imm r3.x, r4.y, 0
end
`;
