	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	5
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	float_ops                       ; -- Begin function float_ops
	.p2align	8
	.type	float_ops,@function
float_ops:                              ; @float_ops
float_ops$local:
	.type	float_ops$local,@function
; %bb.0:
	ALU 6, @10, KC0[CB0:0-32], KC1[]
	TEX 1 @6
	ALU 16, @17, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T2.XYZW, T0.X, 0
	MEM_RAT_CACHELESS STORE_RAW T4.XY, T3.X, 1
	CF_END
	Fetch clause starting at 6:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 10:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Y,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.X, KC0[2].Z, PV.W,  
	  ADD_INT * T1.X, KC0[2].W, PV.W,  
	ALU clause starting at 17:
	  MULLO_INT * T0.Y, T0.W, literal.x,  
	24(3.363116e-44), 0(0.000000e+00)
	  MUL_IEEE   T2.X, T0.X, T1.X,  
	  ADD_INT * T0.W, KC0[2].Y, PS,  
	  ADD   T2.Y, T0.X, -T1.X,  
	  ADD_INT * T1.W, PV.W, literal.x,  
	16(2.242078e-44), 0(0.000000e+00)
	  LSHR   T3.X, PV.W, literal.x,  
	  MAX_DX10   T2.Z, T0.X, T1.X,  
	  FLOOR * T1.W, T1.X,  BS:VEC_120/SCL_212
	2(2.802597e-45), 0(0.000000e+00)
	  ADD   T4.X, |T0.X|, PV.W,  
	  MIN_DX10   T2.W, T0.X, T1.X,  
	  LSHR * T0.X, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD * T4.Y, T2.X, literal.x,  
	1069547520(1.500000e+00), 0(0.000000e+00)
.Lfunc_end0:
	.size	float_ops, .Lfunc_end0-float_ops
	.size	float_ops$local, .Lfunc_end0-float_ops
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
