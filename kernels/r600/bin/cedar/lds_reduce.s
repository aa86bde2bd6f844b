	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	259
	.long	165900
	.long	0
	.long	166120
	.long	64
	.text
	.globl	lds_reduce                      ; -- Begin function lds_reduce
	.p2align	8
	.type	lds_reduce,@function
lds_reduce:                             ; @lds_reduce
lds_reduce$local:
	.type	lds_reduce$local,@function
; %bb.0:
	ALU 9, @18, KC0[CB0:0-32], KC1[]
	TEX 0 @16
	ALU 3, @28, KC0[], KC1[]
	ALU 11, @32, KC0[], KC1[]
	ALU 11, @44, KC0[], KC1[]
	ALU 11, @56, KC0[], KC1[]
	ALU 10, @68, KC0[], KC1[]
	ALU 11, @79, KC0[], KC1[]
	ALU 11, @91, KC0[], KC1[]
	ALU_PUSH_BEFORE 0, @103, KC0[], KC1[]
	JUMP @14 POP:1
	ALU 8, @104, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.X, T0.X, 0
	POP @14 POP:1
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T2.X, T2.X, 0, #1
	ALU clause starting at 18:
	  LSHL   T0.W, T0.X, literal.x,  
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	2(2.802597e-45), 0(0.000000e+00)
	  LSHL   T1.W, PS, literal.x,  
	  ADD_INT * T2.W, KC0[2].Z, PV.W,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T1.W, PS, PV.W,  
	  LSHL * T2.W, KC0[3].X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T2.X, PV.W, PS,  
	ALU clause starting at 28:
	  LDS_WRITE * T0.W, T2.X, 
	  SETGT_UINT * T1.W, T0.X, literal.x,  
	31(4.344025e-44), 0(0.000000e+00)
	  GROUP_BARRIER
	ALU clause starting at 32:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T1.W, 0.0,  
	  ADD_INT * T1.W, T0.W, literal.x, Pred_sel_zero 
	128(1.793662e-43), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T1.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Z, OQAP, Pred_sel_zero 
	  ADD_INT * T1.W, T0.Z, T0.Y, Pred_sel_zero 
	  LDS_WRITE * T0.W, T1.W, Pred_sel_zero
	  SETGT_UINT * T1.W, T0.X, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
	  GROUP_BARRIER
	ALU clause starting at 44:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T1.W, 0.0,  
	  ADD_INT * T1.W, T0.W, literal.x, Pred_sel_zero 
	64(8.968310e-44), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T1.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Z, OQAP, Pred_sel_zero 
	  ADD_INT * T1.W, T0.Z, T0.Y, Pred_sel_zero 
	  LDS_WRITE * T0.W, T1.W, Pred_sel_zero
	  SETGT_UINT * T1.W, T0.X, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  GROUP_BARRIER
	ALU clause starting at 56:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T1.W, 0.0,  
	  ADD_INT * T1.W, T0.W, literal.x, Pred_sel_zero 
	32(4.484155e-44), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T1.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Z, OQAP, Pred_sel_zero 
	  ADD_INT * T1.W, T0.Z, T0.Y, Pred_sel_zero 
	  LDS_WRITE * T0.W, T1.W, Pred_sel_zero
	  SETGT_UINT * T1.W, T0.X, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  GROUP_BARRIER
	ALU clause starting at 68:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T1.W, 0.0,  
	  ADD_INT * T1.W, T0.W, literal.x, Pred_sel_zero 
	16(2.242078e-44), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T1.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Z, OQAP, Pred_sel_zero 
	  ADD_INT * T1.W, T0.Z, T0.Y, Pred_sel_zero 
	  LDS_WRITE * T0.W, T1.W, Pred_sel_zero
	  SETGT_UINT * T1.W, T0.X, 1,  
	  GROUP_BARRIER
	ALU clause starting at 79:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T1.W, 0.0,  
	  ADD_INT * T1.W, T0.W, literal.x, Pred_sel_zero 
	8(1.121039e-44), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T1.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Z, OQAP, Pred_sel_zero 
	  ADD_INT * T1.W, T0.Z, T0.Y, Pred_sel_zero 
	  LDS_WRITE * T0.W, T1.W, Pred_sel_zero
	  SETE_INT   T1.W, T0.X, 0.0,  
	  SETNE_INT * T2.W, T0.X, 0.0,  
	  GROUP_BARRIER
	ALU clause starting at 91:
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), T2.W, 0.0,  
	  MOV * T2.W, literal.x, Pred_sel_zero 
	4(5.605194e-45), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T2.W Pred_sel_zero
	  MOV * T0.X, OQAP, Pred_sel_zero 
	  LDS_READ_RET * OQAP, T0.W Pred_sel_zero
	  MOV * T0.Y, OQAP, Pred_sel_zero 
	  ADD_INT * T2.W, T0.Y, T0.X, Pred_sel_zero 
	  LDS_WRITE * T0.W, T2.W, Pred_sel_zero
	  AND_INT * T0.W, T1.W, 1,  
	  SETE_INT * T0.W, PV.W, 0.0,  
	  GROUP_BARRIER
	ALU clause starting at 103:
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), T0.W, 0.0,  
	ALU clause starting at 104:
	  LSHL   T0.W, T1.X, literal.x,  
	  MOV * T1.W, KC0[2].Y,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, PS, PV.W,  
	  LSHR   T0.X, PV.W, literal.x,  
	  MOV * T0.W, literal.y,  
	2(2.802597e-45), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T0.W 
	  MOV * T1.X, OQAP,  
.Lfunc_end0:
	.size	lds_reduce, .Lfunc_end0-lds_reduce
	.size	lds_reduce$local, .Lfunc_end0-lds_reduce
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

	.type	llvm.amdgcn.kernel.lds_reduce.lds,@object ; @llvm.amdgcn.kernel.lds_reduce.lds
	.local	llvm.amdgcn.kernel.lds_reduce.lds
	.comm	llvm.amdgcn.kernel.lds_reduce.lds,256,4
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
