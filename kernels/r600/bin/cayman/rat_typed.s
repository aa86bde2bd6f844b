	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	4
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	rat_typed                       ; -- Begin function rat_typed
	.p2align	8
	.type	rat_typed,@function
rat_typed:                              ; @rat_typed
rat_typed$local:
	.type	rat_typed$local,@function
; %bb.0:
	ALU 78, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT STORE_TYPED RAT(1) T2, T1
	MEM_RAT STORE_TYPED RAT(2) T0, T3
	CF_END
	ALU clause starting at 4:
	  SETGT_INT * T0.W, 0.0, KC0[2].Z,  
	  ADD_INT * T1.W, KC0[2].Z, PV.W,  
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  XOR_INT   T0.Z, T1.W, T0.W,  
	  ADD_INT * T1.W, PV.Y, T0.X,  
	  ADD_INT   T0.X, PV.W, KC0[3].X,  
	  UINT_TO_FLT * T1.W, PV.Z,  
	  RECIP_IEEE   T0.X (MASKED), T1.W,  
	  RECIP_IEEE   T0.Y, T1.W,  
	  RECIP_IEEE   T0.Z (MASKED), T1.W,  
	  RECIP_IEEE * T0.W (MASKED), T1.W,  
	  MUL_IEEE   T1.Z, PV.Y, literal.x,  
	  SETGT_INT * T1.W, 0.0, T0.X,  
	1333788670(4.294967e+09), 0(0.000000e+00)
	  ADD_INT   T0.Y, T0.X, PV.W,  
	  FLT_TO_UINT   T1.Z, PV.Z,  
	  SUB_INT * T2.W, 0.0, T0.Z,  
	  MULLO_INT   T1.X, T2.W, T1.Z,  
	  MULLO_INT   T1.Y (MASKED), T2.W, T1.Z,  
	  MULLO_INT   T1.Z (MASKED), T2.W, T1.Z,  
	  MULLO_INT * T1.W (MASKED), T2.W, T1.Z,  
	  MULHI   T1.X, T1.Z, T1.X,  
	  MULHI   T1.Y (MASKED), T1.Z, T1.X,  
	  MULHI   T1.Z (MASKED), T1.Z, T1.X,  
	  MULHI * T1.W (MASKED), T1.Z, T1.X,  
	  ADD_INT   T1.Z, T1.Z, PV.X,  
	  XOR_INT * T2.W, T0.Y, T1.W,  
	  MULHI   T0.X (MASKED), T2.W, T1.Z,  
	  MULHI   T0.Y, T2.W, T1.Z,  
	  MULHI   T0.Z (MASKED), T2.W, T1.Z,  
	  MULHI * T0.W (MASKED), T2.W, T1.Z,  
	  MULLO_INT   T1.X, T0.Y, T0.Z,  
	  MULLO_INT   T1.Y (MASKED), T0.Y, T0.Z,  
	  MULLO_INT   T1.Z (MASKED), T0.Y, T0.Z,  
	  MULLO_INT * T1.W (MASKED), T0.Y, T0.Z,  
	  SUB_INT * T2.W, T2.W, PV.X,  
	  ADD_INT   T1.Y, T0.Y, 1,  
	  SETGE_UINT   T1.Z, PV.W, T0.Z,  
	  SUB_INT * T3.W, PV.W, T0.Z,  
	  CNDE_INT   T2.Z, PV.Z, T2.W, PV.W, 
	  CNDE_INT * T2.W, PV.Z, T0.Y, PV.Y, 
	  ADD_INT   T1.Z, PV.W, 1,  
	  SETGE_UINT * T3.W, PV.Z, T0.Z,  
	  CNDE_INT   T0.Z, PV.W, T2.W, PV.Z, 
	  XOR_INT * T0.W, T1.W, T0.W,  BS:VEC_021/SCL_122
	  XOR_INT * T1.W, PV.Z, PV.W,  
	  SUB_INT * T1.Y, PV.W, T0.W,  
	  MULLO_INT   T0.X (MASKED), T1.Y, KC0[2].Z,  
	  MULLO_INT   T0.Y, T1.Y, KC0[2].Z,  
	  MULLO_INT   T0.Z (MASKED), T1.Y, KC0[2].Z,  
	  MULLO_INT * T0.W (MASKED), T1.Y, KC0[2].Z,  
	  SUB_INT   T1.X, T0.X, PV.Y,  
	  AND_INT   T2.Z, T0.X, literal.x,  
	  INT_TO_FLT * T2.W, T0.X,  
	3(4.203895e-45), 0(0.000000e+00)
	  SUB_INT * T0.Y, 0.0, T0.X,  
	  MULLO_INT   T0.X (MASKED), T0.X, literal.x,  
	  MULLO_INT   T0.Y (MASKED), T0.X, literal.x,  
	  MULLO_INT   T0.Z, T0.X, literal.x,  
	  MULLO_INT * T0.W (MASKED), T0.X, literal.x,  
	1000(1.401298e-42), 0(0.000000e+00)
	  MOV * T0.W, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  MOV   T3.X, T0.X,  
	  MOV   T3.Y, 0.0,  
	  MOV * T1.Z, 0.0,  
	  MOV   T3.Z, 0.0,  
	  MOV * T1.W, 0.0,  
	  MOV * T3.W, 0.0,  
	  MUL_IEEE * T2.X, T2.W, KC0[2].Y,  
	  ADD   T2.Y, -PV.X, 1.0,  
	  UINT_TO_FLT * T2.W, T2.Z,  
	  MUL_IEEE * T2.W, PV.W, literal.x,  
	1048576000(2.500000e-01), 0(0.000000e+00)
	  MOV * T2.Z, literal.x,  
	1056964608(5.000000e-01), 0(0.000000e+00)
.Lfunc_end0:
	.size	rat_typed, .Lfunc_end0-rat_typed
	.size	rat_typed$local, .Lfunc_end0-rat_typed
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
