	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	259
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
	ALU 8, @26, KC0[CB0:0-32], KC1[]
	TEX 0 @24
	ALU_PUSH_BEFORE 6, @35, KC0[CB0:0-32], KC1[]
	JUMP @14 POP:1
	ALU_PUSH_BEFORE 3, @42, KC0[], KC1[]
	JUMP @13 POP:1
	ALU_PUSH_BEFORE 3, @46, KC0[], KC1[]
	JUMP @9 POP:1
	ALU_POP_AFTER 7, @50, KC0[], KC1[]
	ALU_PUSH_BEFORE 1, @58, KC0[], KC1[]
	JUMP @12 POP:1
	ALU_POP_AFTER 5, @60, KC0[], KC1[]
	ALU_POP_AFTER 1, @66, KC0[], KC1[]
	ALU_POP_AFTER 5, @68, KC0[], KC1[]
	ALU_PUSH_BEFORE 1, @74, KC0[], KC1[]
	JUMP @20 POP:1
	ALU_PUSH_BEFORE 3, @76, KC0[], KC1[]
	JUMP @19 POP:1
	ALU_POP_AFTER 6, @80, KC0[], KC1[]
	ALU_POP_AFTER 2, @87, KC0[], KC1[]
	ALU 2, @90, KC0[], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1.X, T0.X
	CF_END
	PAD
	Fetch clause starting at 24:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 26:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 35:
	  AND_INT   T0.Z, T0.X, literal.x,  
	  MOV * T1.W, KC0[2].Y,  
	7(9.809089e-45), 0(0.000000e+00)
	  MOV   T1.Z, literal.x,  
	  SETGT_INT * T2.W, literal.y, PV.Z,  
	1(1.401298e-45), 2(2.802597e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 42:
	  MOV   T1.Z, literal.x,  
	  SETGT_INT * T2.W, literal.y, T0.Z,  
	1(1.401298e-45), 3(4.203895e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 46:
	  MOV   T1.Z, literal.x,  
	  SETGT_INT * T2.W, literal.y, T0.Z,  
	1(1.401298e-45), 5(7.006492e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 50:
	  MOV   T1.X, literal.x,  
	  SETE_INT * T2.W, T0.Z, literal.y,  
	42(5.885454e-44), 5(7.006492e-45)
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  LSHL * T1.X, T0.X, literal.x, Pred_sel_zero 
	2(2.802597e-45), 0(0.000000e+00)
	  MOV * T1.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 58:
	  SETE_INT * T2.W, T1.Z, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 60:
	  MOV   T1.X, literal.x,  
	  SETE_INT * T2.W, T0.Z, literal.y,  
	42(5.885454e-44), 3(4.203895e-45)
	  PRED_SETE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  XOR_INT * T1.X, T0.X, literal.x, Pred_sel_zero 
	85(1.191104e-43), 0(0.000000e+00)
	ALU clause starting at 66:
	  MOV * T1.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 68:
	  SETE_INT * T2.W, T1.Z, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T1.X, T0.X, literal.x, Pred_sel_zero 
	-9(nan), 0(0.000000e+00)
	  MOV * T1.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 74:
	  SETE_INT * T2.W, T1.Z, 0.0,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 76:
	  MOV   T1.Z, literal.x,  
	  SETGT_INT * T2.W, T0.Z, 0.0,  
	1(1.401298e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 80:
	  MOV * T1.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	  MULLO_INT   T1.X, T0.X, literal.x,  
	  MULLO_INT   T1.Y (MASKED), T0.X, literal.x,  
	  MULLO_INT   T1.Z (MASKED), T0.X, literal.x,  
	  MULLO_INT * T1.W (MASKED), T0.X, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	ALU clause starting at 87:
	  SETE_INT * T2.W, T1.Z, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ADD_INT * T1.X, T0.X, 1, Pred_sel_zero 
	ALU clause starting at 90:
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
