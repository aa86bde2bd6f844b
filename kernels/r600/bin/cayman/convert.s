	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	convert                         ; -- Begin function convert
	.p2align	8
	.type	convert,@function
convert:                                ; @convert
convert$local:
	.type	convert$local,@function
; %bb.0:
	ALU 8, @14, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 6, @23, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1, T2.X
	ALU 0, @30, KC0[CB0:0-32], KC1[]
	TEX 0 @12
	ALU 4, @31, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 10:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	Fetch clause starting at 12:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 14:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Z,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].W, PV.W,  
	ALU clause starting at 23:
	  LSHL * T0.W, T0.W, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  INT_TO_FLT   T1.X, T0.X,  
	  ADD_INT * T0.W, KC0[2].Y, PV.W,  
	  LSHR   T2.X, PV.W, literal.x,  
	  UINT_TO_FLT * T1.Y, T0.X,  
	2(2.802597e-45), 0(0.000000e+00)
	ALU clause starting at 30:
	  ADD_INT * T0.X, KC0[3].X, T1.W,  
	ALU clause starting at 31:
	  TRUNC * T0.W, T0.X,  
	  FLT_TO_INT   T0.X, PV.W,  
	  ADD_INT * T0.W, KC0[2].Z, T1.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	convert, .Lfunc_end0-convert
	.size	convert$local, .Lfunc_end0-convert
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

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
