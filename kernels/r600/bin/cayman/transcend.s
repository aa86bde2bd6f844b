	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	4
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	transcend                       ; -- Begin function transcend
	.p2align	8
	.type	transcend,@function
transcend:                              ; @transcend
transcend$local:
	.type	transcend$local,@function
; %bb.0:
	ALU 8, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 40, @17, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T2, T1.X
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 8:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 17:
	  MUL_IEEE * T1.W, T0.X, literal.x,  
	1048576000(2.500000e-01), 0(0.000000e+00)
	  SETGT * T2.W, literal.x, PV.W,  
	-1023672320(-1.260000e+02), 0(0.000000e+00)
	  CNDE   T0.Z, PV.W, 0.0, literal.x, 
	  SETGT * T3.W, literal.y, T0.X,  
	1115684864(6.400000e+01), 8388608(1.175494e-38)
	  CNDE   T1.X, PV.W, 1.0, literal.x, 
	  CNDE   T0.Y, T2.W, 1.0, literal.y, 
	  LSHL   T1.Z, T0.W, literal.z,  BS:VEC_120/SCL_212
	  ADD * T0.W, T1.W, PV.Z,  BS:VEC_201
	1333788672(4.294967e+09), 528482304(5.421011e-20)
	4(5.605194e-45), 0(0.000000e+00)
	  EXP_IEEE   T0.X (MASKED), T0.W,  
	  EXP_IEEE   T0.Y (MASKED), T0.W,  
	  EXP_IEEE   T0.Z, T0.W,  
	  EXP_IEEE * T0.W (MASKED), T0.W,  
	  RECIPSQRT_IEEE   T0.X (MASKED), T0.X,  
	  RECIPSQRT_IEEE   T0.Y (MASKED), T0.X,  
	  RECIPSQRT_IEEE   T0.Z (MASKED), T0.X,  
	  RECIPSQRT_IEEE * T0.W, T0.X,  
	  RECIP_IEEE   T2.X, T0.W,  
	  RECIP_IEEE   T2.Y (MASKED), T0.W,  
	  RECIP_IEEE   T2.Z (MASKED), T0.W,  
	  RECIP_IEEE * T2.W (MASKED), T0.W,  
	  RECIP_IEEE   T2.X (MASKED), T0.X,  
	  RECIP_IEEE   T2.Y, T0.X,  
	  RECIP_IEEE   T2.Z (MASKED), T0.X,  
	  RECIP_IEEE * T2.W (MASKED), T0.X,  
	  CNDE   T3.X, T3.W, 0.0, literal.x, 
	  ADD_INT   T1.Y, KC0[2].Y, T1.Z,  
	  MUL_IEEE   T2.Z, T0.Z, T0.Y,  
	  MUL_IEEE * T0.W, T0.X, T1.X,  
	1107296256(3.200000e+01), 0(0.000000e+00)
	  LOG_IEEE   T0.X, T0.W,  
	  LOG_IEEE   T0.Y (MASKED), T0.W,  
	  LOG_IEEE   T0.Z (MASKED), T0.W,  
	  LOG_IEEE * T0.W (MASKED), T0.W,  
	  LSHR   T1.X, T1.Y, literal.x,  
	  ADD * T2.W, PV.X, -T3.X,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	transcend, .Lfunc_end0-transcend
	.size	transcend$local, .Lfunc_end0-transcend
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
