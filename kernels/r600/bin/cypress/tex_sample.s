	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	tex_sample                      ; -- Begin function tex_sample
	.p2align	8
	.type	tex_sample,@function
tex_sample:                             ; @tex_sample
tex_sample$local:
	.type	tex_sample$local,@function
; %bb.0:
	ALU 9, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU 4, @22, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T1.XYZW, T0.X, 0
	ALU 8, @27, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	MEM_RAT_CACHELESS STORE_RAW T0.XYZW, T1.X, 1
	CF_END
	Fetch clause starting at 8:
	  TEX_SAMPLE T1.XYZW, T0.XY00 RID:0 SID:0 CT:UUNN
	Fetch clause starting at 10:
	  TEX_SAMPLE T0.XYZW, T0.XY00 RID:1 SID:1 CT:NNNN
	ALU clause starting at 12:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  ADD_INT   T1.W, PV.W, literal.x,  
	  ASHR * T2.W, PV.W, literal.y,  
	-40(nan), 4(5.605194e-45)
	  INT_TO_FLT * T0.X, PV.W,  
	  ADD   T0.X, PS, 0.5,  
	  INT_TO_FLT * T0.Z, T2.W,  
	  ADD * T0.Y, PS, 0.5,  
	ALU clause starting at 22:
	  LSHL * T2.W, T0.W, literal.x,  
	5(7.006492e-45), 0(0.000000e+00)
	  ADD_INT * T2.W, KC0[2].Y, PV.W,  
	  LSHR * T0.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	ALU clause starting at 27:
	  AND_INT * T0.W, T0.W, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
	  UINT_TO_FLT * T0.X, PV.W,  
	  MUL_IEEE   T0.X, PS, KC0[2].Z,  
	  ADD_INT * T0.W, T2.W, literal.x,  
	16(2.242078e-44), 0(0.000000e+00)
	  LSHR   T1.X, PV.W, literal.x,  
	  MUL_IEEE * T0.Y, T0.Z, KC0[2].Z,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	tex_sample, .Lfunc_end0-tex_sample
	.size	tex_sample$local, .Lfunc_end0-tex_sample
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
