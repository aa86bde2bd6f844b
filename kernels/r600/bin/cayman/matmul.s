	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	515
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	matmul                          ; -- Begin function matmul
	.p2align	8
	.type	matmul,@function
matmul:                                 ; @matmul
matmul$local:
	.type	matmul$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 21, @20, KC0[CB0:0-32], KC1[]
	JUMP @12 POP:1
	ALU 7, @42, KC0[CB0:0-32], KC1[]
	LOOP_START_DX10 @11
	ALU 2, @50, KC0[], KC1[]
	TEX 1 @16
	ALU_PUSH_BEFORE 6, @53, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @4
	POP @12 POP:1
	ALU 4, @60, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T2.X, T2.X, 0, #1
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 20:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z, KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.X (MASKED), KC0[1].W, T1.Y,  
	  MULLO_INT   T0.Y (MASKED), KC0[1].W, T1.Y,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].W, T1.Y,  
	  MULLO_INT * T0.W, KC0[1].W, T1.Y,  
	  ADD_INT   T1.Z, PV.W, T0.Y,  
	  ADD_INT * T0.W, T0.Z, T0.X,  
	  ADD_INT   T0.Z, PV.W, KC0[3].Z,  
	  ADD_INT * T0.W, PV.Z, KC0[3].W,  
	  MULLO_INT   T0.X (MASKED), T0.W, KC0[3].X,  
	  MULLO_INT   T0.Y, T0.W, KC0[3].X,  
	  MULLO_INT   T0.Z (MASKED), T0.W, KC0[3].X,  
	  MULLO_INT * T0.W (MASKED), T0.W, KC0[3].X,  
	  MOV   T0.X, literal.x,  
	  LSHL   T0.Y, PV.Y, literal.y,  
	  LSHL   T0.Z, T0.Z, literal.y,  
	  SETGT_INT * T0.W, 1, KC0[3].X,  
	0(0.000000e+00), 2(2.802597e-45)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 42:
	  MOV   T0.X, literal.x,  
	  MOV * T0.W, KC0[2].Z,  
	0(0.000000e+00), 0(0.000000e+00)
	  ADD_INT   T1.X, PV.W, T0.Y,  
	  MOV * T0.W, KC0[3].X,  
	  ADD_INT   T2.X, KC0[2].W, T0.Z,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	ALU clause starting at 50:
	  ADD_INT   T1.Z, T1.X, literal.x,  
	  ADD_INT * T2.W, T2.X, T1.W,  BS:VEC_120/SCL_212
	4(5.605194e-45), 0(0.000000e+00)
	ALU clause starting at 53:
	  MULADD_IEEE * T0.X, T1.X, T2.X, T0.X, 
	  MOV   T2.X, T2.W,  
	  ADD_INT * T0.W, T0.W, literal.x,  BS:VEC_120/SCL_212
	-1(nan), 0(0.000000e+00)
	  MOV   T1.X, T1.Z,  
	  SETE_INT * T2.W, PV.W, 0.0,  
	  PRED_SETNE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 60:
	  MOV * T0.W, KC0[2].Y,  
	  ADD_INT * T0.W, PV.W, T0.Y,  
	  ADD_INT * T0.W, PV.W, T0.Z,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	matmul, .Lfunc_end0-matmul
	.size	matmul$local, .Lfunc_end0-matmul
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 2
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
