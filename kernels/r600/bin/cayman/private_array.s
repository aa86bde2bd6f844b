	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	6
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	private_array                   ; -- Begin function private_array
	.p2align	8
	.type	private_array,@function
private_array:                          ; @private_array
private_array$local:
	.type	private_array$local,@function
; %bb.0:
	ALU 8, @12, KC0[CB0:0-32], KC1[]
	TEX 0 @8
	ALU 2, @21, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 20, @24, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 8:
	  VTX_READ_128 T3.XYZW, T0.X, 0, #1
	Fetch clause starting at 10:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 12:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	4(5.605194e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 21:
	  LSHL * T4.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 24:
	  LSHL * T1.W, T3.Y, 1,  
	  MULLO_INT   T2.X (MASKED), T3.Z, literal.x,  
	  MULLO_INT   T2.Y (MASKED), T3.Z, literal.x,  
	  MULLO_INT   T2.Z (MASKED), T3.Z, literal.x,  
	  MULLO_INT * T2.W, T3.Z, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT   T0.Z, T0.W, 1,  
	  LSHL * T3.W, T3.W, literal.x,  BS:VEC_120/SCL_212
	2(2.802597e-45), 0(0.000000e+00)
	  MOV * T0.W, T3.X,  
	  AND_INT   T1.Z, T0.X, literal.x,  
	  AND_INT * T5.W, T0.Z, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  MOVA_INT * AR.x (MASKED), PV.W,  
	  MOV * T0.X, T(0 + AR.x).W+,  
	  MOVA_INT * AR.x (MASKED), T1.Z,  
	  MOV * T0.Y, T(0 + AR.x).W+,  
	  ADD_INT   T0.X, PV.Y, T0.X,  
	  ADD_INT * T0.W, KC0[2].Y, T4.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	private_array, .Lfunc_end0-private_array
	.size	private_array$local, .Lfunc_end0-private_array
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
