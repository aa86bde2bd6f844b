	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	vec4k                           ; -- Begin function vec4k
	.p2align	8
	.type	vec4k,@function
vec4k:                                  ; @vec4k
vec4k$local:
	.type	vec4k$local,@function
; %bb.0:
	ALU 9, @10, KC0[CB0:0-32], KC1[]
	TEX 1 @6
	ALU 9, @20, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T1, T0.X
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_128 T1.XYZW, T1.X, 0, #1
	  VTX_READ_128 T2.XYZW, T0.X, 0, #1
	ALU clause starting at 10:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Y,  
	  LSHL * T0.W, PV.W, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	  ADD_INT * T1.X, KC0[2].W, T0.W,  
	ALU clause starting at 20:
	  MULADD_IEEE * T1.W, T2.W, T1.W, literal.x, 
	1082130432(4.000000e+00), 0(0.000000e+00)
	  MULADD_IEEE * T1.Z, T2.Z, T1.Z, literal.x, 
	1077936128(3.000000e+00), 0(0.000000e+00)
	  MULADD_IEEE * T1.Y, T2.Y, T1.Y, literal.x, 
	1073741824(2.000000e+00), 0(0.000000e+00)
	  MULADD_IEEE   T1.X, T2.X, T1.X, 1.0, 
	  ADD_INT * T0.W, KC0[2].Y, T0.W,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	vec4k, .Lfunc_end0-vec4k
	.size	vec4k$local, .Lfunc_end0-vec4k
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
