	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	5
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
	ALU 5, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU 0, @18, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 22, @19, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T2.XYZW, T0.X, 0
	MEM_RAT_CACHELESS STORE_RAW T3.XYZW, T4.X, 1
	CF_END
	Fetch clause starting at 8:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	Fetch clause starting at 10:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 12:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Y,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].W, PV.W,  
	ALU clause starting at 18:
	  ADD_INT * T1.X, KC0[2].Z, T1.W,  
	ALU clause starting at 19:
	  OR_INT * T1.W, T0.X, 1,  
	  LSHL   T0.Z, T0.W, literal.x,  
	  LSHL   T0.W, PV.W, literal.y,  
	  MULLO_INT * T2.X, PV.W, T1.X,  
	5(7.006492e-45), 3(4.203895e-45)
	  MAX_UINT   T3.X, T1.X, T1.W,  
	  XOR_INT   T2.Y, PV.W, T1.X,  
	  ADD_INT   T0.W, KC0[2].Y, PV.Z,  
	  LSHR * T2.W, T1.X, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	  MIN_UINT   T3.Y, T1.W, T1.X,  
	  AND_INT   T2.Z, T1.W, PS,  
	  ADD_INT * T2.W, PV.W, literal.x,  
	16(2.242078e-44), 0(0.000000e+00)
	  LSHR   T4.X, PV.W, literal.x,  
	  SUB_INT   T3.Z, T1.X, T1.W,  
	  AND_INT   T1.W, T0.X, literal.y,  BS:VEC_120/SCL_212
	  NOT_INT * T2.W, T1.X,  
	2(2.802597e-45), 65280(9.147676e-41)
	  LSHR   T0.X, T0.W, literal.x,  
	  OR_INT   T3.W, PV.W, PS,  
	  ASHR * T2.W, T1.X, literal.y,  
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
