	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	259
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	nested_if                       ; -- Begin function nested_if
	.p2align	8
	.type	nested_if,@function
nested_if:                              ; @nested_if
nested_if$local:
	.type	nested_if$local,@function
; %bb.0:
	ALU 8, @10, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU_PUSH_BEFORE 4, @19, KC0[], KC1[]
	JUMP @5 POP:1
	ALU_POP_AFTER 12, @24, KC0[], KC1[]
	ALU 10, @37, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1.X, T0.X
	CF_END
	Fetch clause starting at 8:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 10:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 19:
	  AND_INT * T1.W, T0.X, 1,  
	  MOV   T1.Z, literal.x,  
	  SETE_INT * T1.W, PV.W, 0.0,  
	1(1.401298e-45), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 24:
	  AND_INT * T1.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MOV   T1.X, literal.x,  
	  SETE_INT * T1.W, PV.W, 0.0,  
	5(7.006492e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MOV   T0.Z, literal.x, Pred_sel_zero 
	  AND_INT * T1.W, T0.X, literal.y, Pred_sel_zero 
	7(9.809089e-45), 4(5.605194e-45)
	  CNDE_INT * T1.X, T1.W, literal.x, T0.Z, Pred_sel_zero
	6(8.407791e-45), 0(0.000000e+00)
	  MOV * T1.Z, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 37:
	  MOV   T0.Z, KC0[2].Y,  
	  SETE_INT * T1.W, T1.Z, 0.0,  
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  ASHR   T1.Z, T0.X, literal.x, Pred_sel_zero 
	  AND_INT * T1.W, T0.X, literal.y, Pred_sel_zero 
	4(5.605194e-45), 8(1.121039e-44)
	  CNDE_INT * T1.X, T1.W, T1.Z, literal.x, Pred_sel_zero
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, T0.Z, T0.W,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	nested_if, .Lfunc_end0-nested_if
	.size	nested_if$local, .Lfunc_end0-nested_if
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
