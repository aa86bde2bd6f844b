	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	259
	.long	165900
	.long	0
	.long	166120
	.long	4
	.text
	.globl	lds_atomic                      ; -- Begin function lds_atomic
	.p2align	8
	.type	lds_atomic,@function
lds_atomic:                             ; @lds_atomic
lds_atomic$local:
	.type	lds_atomic$local,@function
; %bb.0:
	ALU 21, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 8, @34, KC0[], KC1[]
	ALU_PUSH_BEFORE 0, @43, KC0[], KC1[]
	JUMP @8 POP:1
	ALU 8, @44, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1.X, T0.X
	POP @8 POP:1
	CF_END
	PAD
	Fetch clause starting at 10:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 12:
	  LSHL   T2.X, T0.X, literal.x,  
	  SETGT_UINT   T0.Y, literal.y, T0.X,  
	  MOV   T0.Z, KC0[2].Z,  
	  SETGT_UINT * T0.W, T0.X, literal.z,  
	2(2.802597e-45), 4(5.605194e-45)
	3(4.203895e-45), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PV.W, 0.0,  
	  MOV * T0.W, literal.x, Pred_sel_zero 
	0(0.000000e+00), 0(0.000000e+00)
	  LDS_WRITE * T2.X, T0.W, Pred_sel_zero
	  MULLO_INT   T0.X, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  LSHL   T1.Z, PV.X, literal.x,  
	  ADD_INT * T0.W, T0.Z, T2.X,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.Z, PV.W, PV.Z,  
	  LSHL * T0.W, KC0[3].X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, PV.Z, PV.W,  
	  GROUP_BARRIER
	ALU clause starting at 34:
	  AND_INT * T0.W, T0.X, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  AND_INT   T0.Y, T0.Y, 1,  
	  LSHL   T0.Z, PV.W, literal.x,  
	  MOV * T0.W, literal.y,  
	2(2.802597e-45), 1(1.401298e-45)
	  LDS_ADD * T0.Z, T0.W, 
	  SETE_INT * T0.W, T0.Y, 0.0,  
	  GROUP_BARRIER
	ALU clause starting at 43:
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), T0.W, 0.0,  
	ALU clause starting at 44:
	  LSHL * T0.W, T1.X, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	  OR_INT   T0.Z, PV.W, T2.X,  
	  MOV * T0.W, KC0[2].Y,  
	  ADD_INT * T0.W, PV.W, PV.Z,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  LDS_READ_RET * OQAP, T2.X 
	  MOV * T1.X, OQAP,  
.Lfunc_end0:
	.size	lds_atomic, .Lfunc_end0-lds_atomic
	.size	lds_atomic$local, .Lfunc_end0-lds_atomic
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

	.type	llvm.amdgcn.kernel.lds_atomic.lds,@object ; @llvm.amdgcn.kernel.lds_atomic.lds
	.local	llvm.amdgcn.kernel.lds_atomic.lds
	.comm	llvm.amdgcn.kernel.lds_atomic.lds,16,4
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
