	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	261
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	switch_case                     ; -- Begin function switch_case
	.p2align	8
	.type	switch_case,@function
switch_case:                            ; @switch_case
switch_case$local:
	.type	switch_case$local,@function
; %bb.0:
	ALU 5, @24, KC0[CB0:0-32], KC1[]
	TEX 0 @22
	ALU_PUSH_BEFORE 6, @30, KC0[CB0:0-32], KC1[]
	JUMP @14 POP:1
	ALU_PUSH_BEFORE 3, @37, KC0[], KC1[]
	JUMP @13 POP:1
	ALU_PUSH_BEFORE 3, @41, KC0[], KC1[]
	JUMP @9 POP:1
	ALU_POP_AFTER 7, @45, KC0[], KC1[]
	ALU_PUSH_BEFORE 1, @53, KC0[], KC1[]
	JUMP @12 POP:1
	ALU_POP_AFTER 5, @55, KC0[], KC1[]
	ALU_POP_AFTER 1, @61, KC0[], KC1[]
	ALU_POP_AFTER 5, @63, KC0[], KC1[]
	ALU_PUSH_BEFORE 1, @69, KC0[], KC1[]
	JUMP @18 POP:1
	ALU 6, @71, KC0[], KC1[]
	ALU_POP_AFTER 2, @78, KC0[], KC1[]
	ALU 2, @81, KC0[], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.X, T0.X, 1
	CF_END
	PAD
	Fetch clause starting at 22:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 24:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 30:
	  AND_INT   T2.W, T0.X, literal.x,  
	  MOV * T1.W, KC0[2].Y,  
	7(9.809089e-45), 0(0.000000e+00)
	  MOV   T3.W, literal.x,  
	  SETGT_INT * T4.W, literal.y, PV.W,  
	1(1.401298e-45), 2(2.802597e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 37:
	  MOV   T3.W, literal.x,  
	  SETGT_INT * T4.W, literal.y, T2.W,  
	1(1.401298e-45), 3(4.203895e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 41:
	  MOV   T3.W, literal.x,  
	  SETGT_INT * T4.W, literal.y, T2.W,  
	1(1.401298e-45), 5(7.006492e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PS, 0.0,  
	ALU clause starting at 45:
	  MOV   T1.X, literal.x,  
	  SETE_INT * T3.W, T2.W, literal.y,  
	42(5.885454e-44), 5(7.006492e-45)
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  LSHL * T1.X, T0.X, literal.x, Pred_sel_zero 
	2(2.802597e-45), 0(0.000000e+00)
	  MOV * T3.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 53:
	  SETE_INT * T3.W, T3.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 55:
	  MOV   T1.X, literal.x,  
	  SETE_INT * T3.W, T2.W, literal.y,  
	42(5.885454e-44), 3(4.203895e-45)
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  XOR_INT * T1.X, T0.X, literal.x, Pred_sel_zero 
	85(1.191104e-43), 0(0.000000e+00)
	ALU clause starting at 61:
	  MOV * T3.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 63:
	  SETE_INT * T3.W, T3.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T1.X, T0.X, literal.x, Pred_sel_zero 
	-9(nan), 0(0.000000e+00)
	  MOV * T3.W, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 69:
	  SETE_INT * T3.W, T3.W, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 71:
	  MOV   T3.W, literal.x,  
	  SETGT_INT * T2.W, T2.W, 0.0,  
	1(1.401298e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PS, 0.0,  
	  MOV   T3.W, literal.x, Pred_sel_one 
	  MULLO_INT * T1.X, T0.X, literal.y, Pred_sel_one 
	0(0.000000e+00), 5(7.006492e-45)
	ALU clause starting at 78:
	  SETE_INT * T2.W, T3.W, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T1.X, T0.X, 1, Pred_sel_zero 
	ALU clause starting at 81:
	  ADD_INT * T0.W, T1.W, T0.W,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	switch_case, .Lfunc_end0-switch_case
	.size	switch_case$local, .Lfunc_end0-switch_case
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
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
