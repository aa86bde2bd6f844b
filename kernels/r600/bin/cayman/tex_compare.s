	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	tex_compare                     ; -- Begin function tex_compare
	.p2align	8
	.type	tex_compare,@function
tex_compare:                            ; @tex_compare
tex_compare$local:
	.type	tex_compare$local,@function
; %bb.0:
	ALU 8, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU 8, @21, KC0[], KC1[]
	TEX 0 @10
	ALU 2, @30, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 8:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	Fetch clause starting at 10:
	  TEX_SAMPLE_C T0.XYZW, T2.XY0W RID:2 SID:3 CT:UUNN
	ALU clause starting at 12:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 21:
	  AND_INT * T2.W, T0.W, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  ASHR   T0.Z, T0.W, literal.x,  
	  UINT_TO_FLT * T0.W, PV.W,  
	3(4.203895e-45), 0(0.000000e+00)
	  ADD   T2.X, PV.W, 0.5,  
	  INT_TO_FLT * T0.W, PV.Z,  
	  ADD   T2.Y, PV.W, 0.5,  
	  MOV * T2.W, T0.X,  
	ALU clause starting at 30:
	  ADD_INT * T0.W, KC0[2].Y, T1.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	tex_compare, .Lfunc_end0-tex_compare
	.size	tex_compare$local, .Lfunc_end0-tex_compare
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
