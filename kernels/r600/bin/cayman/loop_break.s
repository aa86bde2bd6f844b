	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	518
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	loop_break                      ; -- Begin function loop_break
	.p2align	8
	.type	loop_break,@function
loop_break:                             ; @loop_break
loop_break$local:
	.type	loop_break$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 9, @18, KC0[CB0:0-32], KC1[]
	JUMP @12 POP:1
	ALU 27, @28, KC0[CB0:0-32], KC1[]
	LOOP_START_DX10 @11
	ALU 23, @56, KC0[], KC1[]
	TEX 0 @16
	ALU_PUSH_BEFORE 8, @80, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @4
	POP @12 POP:1
	ALU 5, @89, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 18:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  MOV   T0.X, literal.x,  
	  ADD_INT   T0.Z, PV.W, KC0[3].Y,  
	  SETGT_INT * T0.W, 1, KC0[2].W,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 28:
	  MOV * T0.W, KC0[2].W,  
	  SETGT_INT * T1.W, 0.0, PV.W,  
	  ADD_INT * T2.W, T0.W, PV.W,  
	  XOR_INT * T1.W, PV.W, T1.W,  
	  UINT_TO_FLT * T2.W, PV.W,  
	  RECIP_IEEE   T0.X, T2.W,  
	  RECIP_IEEE   T0.Y (MASKED), T2.W,  
	  RECIP_IEEE   T0.Z (MASKED), T2.W,  
	  RECIP_IEEE * T0.W (MASKED), T2.W,  
	  MUL_IEEE * T2.W, PV.X, literal.x,  
	1333788670(4.294967e+09), 0(0.000000e+00)
	  MOV   T0.X, literal.x,  
	  FLT_TO_UINT   T1.Z, PV.W,  
	  SUB_INT * T2.W, 0.0, T1.W,  
	0(0.000000e+00), 0(0.000000e+00)
	  MULLO_INT   T0.X (MASKED), T2.W, T1.Z,  
	  MULLO_INT   T0.Y, T2.W, T1.Z,  
	  MULLO_INT   T0.Z (MASKED), T2.W, T1.Z,  
	  MULLO_INT * T0.W (MASKED), T2.W, T1.Z,  
	  MULHI   T1.X, T1.Z, T0.Y,  
	  MULHI   T1.Y (MASKED), T1.Z, T0.Y,  
	  MULHI   T1.Z (MASKED), T1.Z, T0.Y,  
	  MULHI * T1.W (MASKED), T1.Z, T0.Y,  
	  MOV * T0.Y, T0.X,  
	  MOV   T1.Y, literal.x,  
	  ADD_INT   T1.Z, T1.Z, T1.X,  
	  MOV * T2.W, KC0[2].Z,  
	1(1.401298e-45), 0(0.000000e+00)
	ALU clause starting at 56:
	  ADD_INT * T3.W, T0.Z, T0.Y,  
	  SETGT_INT * T4.W, 0.0, PV.W,  
	  ADD_INT * T3.W, T3.W, PV.W,  
	  XOR_INT * T3.W, PV.W, T4.W,  
	  MULHI   T1.X, T3.W, T1.Z,  
	  MULHI   T1.Y (MASKED), T3.W, T1.Z,  
	  MULHI   T1.Z (MASKED), T3.W, T1.Z,  
	  MULHI * T1.W (MASKED), T3.W, T1.Z,  
	  MULLO_INT   T1.X, T1.X, T1.W,  
	  MULLO_INT   T1.Y (MASKED), T1.X, T1.W,  
	  MULLO_INT   T1.Z (MASKED), T1.X, T1.W,  
	  MULLO_INT * T1.W (MASKED), T1.X, T1.W,  
	  SUB_INT * T3.W, T3.W, PV.X,  
	  SETGE_UINT   T2.Z, PV.W, T1.W,  
	  SUB_INT * T5.W, PV.W, T1.W,  
	  CNDE_INT * T3.W, PV.Z, T3.W, PV.W, 
	  SETGE_UINT   T2.Z, PV.W, T1.W,  
	  SUB_INT * T5.W, PV.W, T1.W,  
	  CNDE_INT * T3.W, PV.Z, T3.W, PV.W, 
	  XOR_INT * T3.W, PV.W, T4.W,  
	  SUB_INT * T3.W, PV.W, T4.W,  
	  LSHL * T3.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.X, T2.W, PV.W,  
	ALU clause starting at 80:
	  MOV * T3.W, T1.Y,  
	  SETGT_INT * T4.W, 0.0, T1.X,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T0.Y, T0.Y, 1, Pred_sel_zero 
	  ADD_INT   T0.X, T1.X, T0.X, Pred_sel_zero 
	  SETE_INT * T3.W, T0.W, T0.Y, Pred_sel_zero 
	  AND_INT * T3.W, T3.W, 1,  
	  SETE_INT * T3.W, PV.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 89:
	  MOV   T0.Y, KC0[2].Y,  
	  LSHL * T0.W, T0.Z, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PV.Y, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	loop_break, .Lfunc_end0-loop_break
	.size	loop_break$local, .Lfunc_end0-loop_break
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.text
	.weak	__oclc_ABI_version
	.p2align	2
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
