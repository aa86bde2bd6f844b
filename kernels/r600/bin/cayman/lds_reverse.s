	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	64
	.text
	.globl	lds_reverse                     ; -- Begin function lds_reverse
	.p2align	8
	.type	lds_reverse,@function
lds_reverse:                            ; @lds_reverse
lds_reverse$local:
	.type	lds_reverse$local,@function
; %bb.0:
	ALU 8, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 7, @17, KC0[CB0:0-32], KC1[]
	ALU 1, @25, KC0[], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T2.X
	CF_END
	Fetch clause starting at 6:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 8:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.X, KC0[2].Z, PV.W,  
	ALU clause starting at 17:
	  ADD_INT * T0.W, KC0[2].Y, T0.W,  
	  LSHR   T2.X, PV.W, literal.x,  
	  LSHL * T0.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  LDS_WRITE * T0.W, T1.X, 
	  SUB_INT * T0.W, literal.x, T0.W,  
	252(3.531272e-43), 0(0.000000e+00)
	  GROUP_BARRIER
	ALU clause starting at 25:
	  LDS_READ_RET * OQAP, T0.W 
	  MOV * T0.X, OQAP,  
.Lfunc_end0:
	.size	lds_reverse, .Lfunc_end0-lds_reverse
	.size	lds_reverse$local, .Lfunc_end0-lds_reverse
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.text
	.weak	__oclc_ABI_version
	.p2align	2
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.type	llvm.amdgcn.kernel.lds_reverse.lds,@object ; @llvm.amdgcn.kernel.lds_reverse.lds
	.local	llvm.amdgcn.kernel.lds_reverse.lds
	.comm	llvm.amdgcn.kernel.lds_reverse.lds,256,4
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
