	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	6
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
	ALU 50, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT STORE_TYPED RAT(1) T2, T1, 0
	MEM_RAT STORE_TYPED RAT(2) T0, T3, 1
	CF_END
	ALU clause starting at 4:
	  SETGT_INT * T0.W, 0.0, KC0[2].Z,  
	  ADD_INT   T1.W, KC0[2].Z, PV.W,  
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  XOR_INT   T1.W, PV.W, T0.W,  
	  ADD_INT * T2.W, PS, T0.X,  
	  ADD_INT   T0.X, PS, KC0[3].X,  
	  SUB_INT   T2.W, 0.0, PV.W,  
	  RECIP_UINT * T0.Y, PV.W,  
	  SETGT_INT   T3.W, 0.0, PV.X,  
	  MULLO_INT * T0.Z, PV.W, PS,  
	  ADD_INT   T2.W, T0.X, PV.W,  
	  MULHI * T0.Z, T0.Y, PS,  
	  XOR_INT   T2.W, PV.W, T3.W,  
	  ADD_INT * T4.W, T0.Y, PS,  
	  MULHI * T0.Y, PV.W, PS,  
	  MULLO_INT * T0.Z, PS, T1.W,  
	  SUB_INT * T2.W, T2.W, PS,  
	  ADD_INT   T0.Z, T0.Y, 1,  
	  SETGE_UINT   T4.W, PV.W, T1.W,  
	  SUB_INT * T5.W, PV.W, T1.W,  
	  CNDE_INT   T2.W, PV.W, T2.W, PS, 
	  CNDE_INT * T4.W, PV.W, T0.Y, PV.Z, 
	  ADD_INT   T5.W, PS, 1,  
	  SETGE_UINT * T1.W, PV.W, T1.W,  
	  CNDE_INT   T1.W, PS, T4.W, PV.W, BS:VEC_102/SCL_221
	  XOR_INT * T0.W, T3.W, T0.W,  
	  XOR_INT * T1.W, PV.W, PS,  
	  SUB_INT * T1.Y, PV.W, T0.W,  
	  MULLO_INT * T0.Y, PV.Y, KC0[2].Z,  
	  SUB_INT   T1.X, T0.X, PS,  
	  AND_INT   T2.W, T0.X, literal.x,  
	  INT_TO_FLT * T2.X, T0.X,  
	3(4.203895e-45), 0(0.000000e+00)
	  SUB_INT   T0.Y, 0.0, T0.X,  
	  MULLO_INT * T0.Z, T0.X, literal.x,  
	1000(1.401298e-42), 0(0.000000e+00)
	  MOV * T0.W, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  MOV   T3.X, T0.X,  
	  MOV   T3.Y, 0.0,  
	  MOV   T1.Z, 0.0,  
	  MOV * T3.Z, 0.0,  
	  MOV   T1.W, 0.0,  
	  MOV * T3.W, 0.0,  
	  MUL_IEEE * T2.X, T2.X, KC0[2].Y,  
	  ADD   T2.Y, -PV.X, 1.0,  
	  UINT_TO_FLT * T2.Z, T2.W,  
	  MUL_IEEE * T2.W, PS, literal.x,  
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
