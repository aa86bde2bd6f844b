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
	ALU 5, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 26, @14, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.XYZW, T2.X, 1
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 8:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 14:
	  MUL_IEEE * T1.W, T0.X, literal.x,  
	1048576000(2.500000e-01), 0(0.000000e+00)
	  SETGT * T2.W, literal.x, PV.W,  
	-1023672320(-1.260000e+02), 0(0.000000e+00)
	  CNDE * T3.W, PV.W, 0.0, literal.x, 
	1115684864(6.400000e+01), 0(0.000000e+00)
	  ADD * T1.W, T1.W, PV.W,  
	  EXP_IEEE * T0.Y, PV.W,  
	  SETGT   T1.W, literal.x, T0.X,  
	  RECIPSQRT_IEEE * T0.Z, T0.X,  
	8388608(1.175494e-38), 0(0.000000e+00)
	  CNDE   T3.W, PV.W, 1.0, literal.x, 
	  RECIP_IEEE * T1.X, PS,  
	1333788672(4.294967e+09), 0(0.000000e+00)
	  MUL_IEEE   T2.Y, T0.X, PV.W,  
	  LSHL   T0.Z, T0.W, literal.x,  
	  CNDE   T0.W, T2.W, 1.0, literal.y, BS:VEC_120/SCL_212
	  RECIP_IEEE * T1.Y, T0.X,  
	4(5.605194e-45), 528482304(5.421011e-20)
	  CNDE   T3.Y, T1.W, 0.0, literal.x, 
	  MUL_IEEE   T1.Z, T0.Y, PV.W,  
	  ADD_INT   T0.W, KC0[2].Y, PV.Z,  
	  LOG_IEEE * T0.X, PV.Y,  
	1107296256(3.200000e+01), 0(0.000000e+00)
	  LSHR   T2.X, PV.W, literal.x,  
	  ADD * T1.W, PS, -PV.Y,  
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
