	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	6
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	int_ops                         ; -- Begin function int_ops
	.p2align	8
	.type	int_ops,@function
int_ops:                                ; @int_ops
int_ops$local:
	.type	int_ops$local,@function
; %bb.0:
	ALU 8, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU 0, @21, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 25, @22, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T3, T0.X
	MEM_RAT_CACHELESS STORE_DWORD T2, T5.X
	CF_END
	Fetch clause starting at 8:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	Fetch clause starting at 10:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 12:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Y,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].W, PV.W,  
	ALU clause starting at 21:
	  ADD_INT * T1.X, KC0[2].Z, T1.W,  
	ALU clause starting at 22:
	  OR_INT * T1.W, T0.X, 1,  
	  MAX_UINT   T2.X, T1.X, PV.W,  
	  AND_INT   T0.Z, T0.X, literal.x,  BS:VEC_120/SCL_212
	  LSHL * T0.W, T0.W, literal.y,  
	65280(9.147676e-41), 5(7.006492e-45)
	  NOT_INT   T0.X, T1.X,  
	  MIN_UINT   T2.Y, T1.W, T1.X,  
	  ADD_INT   T1.Z, KC0[2].Y, PV.W,  
	  LSHL * T0.W, T1.W, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  MULLO_INT   T3.X, T1.W, T1.X,  
	  MULLO_INT   T3.Y (MASKED), T1.W, T1.X,  
	  MULLO_INT   T3.Z (MASKED), T1.W, T1.X,  
	  MULLO_INT * T3.W (MASKED), T1.W, T1.X,  
	  LSHR   T4.X, T1.X, literal.x,  
	  XOR_INT   T3.Y, T0.W, T1.X,  
	  SUB_INT   T2.Z, T1.X, T1.W,  
	  ADD_INT * T0.W, T1.Z, literal.y,  
	5(7.006492e-45), 16(2.242078e-44)
	  LSHR   T5.X, PV.W, literal.x,  
	  AND_INT   T3.Z, T1.W, PV.X,  
	  OR_INT * T2.W, T0.Z, T0.X,  
	2(2.802597e-45), 0(0.000000e+00)
	  LSHR   T0.X, T1.Z, literal.x,  
	  ASHR * T3.W, T1.X, literal.y,  
	2(2.802597e-45), 7(9.809089e-45)
.Lfunc_end0:
	.size	int_ops, .Lfunc_end0-int_ops
	.size	int_ops$local, .Lfunc_end0-int_ops
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
