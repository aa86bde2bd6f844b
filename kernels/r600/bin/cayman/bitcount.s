	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	514
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	bitcount                        ; -- Begin function bitcount
	.p2align	8
	.type	bitcount,@function
bitcount:                               ; @bitcount
bitcount$local:
	.type	bitcount$local,@function
; %bb.0:
	ALU 8, @18, KC0[CB0:0-32], KC1[]
	TEX 0 @16
	ALU_PUSH_BEFORE 3, @27, KC0[], KC1[]
	JUMP @12 POP:1
	ALU 1, @31, KC0[], KC1[]
	LOOP_START_DX10 @11
	ALU_PUSH_BEFORE 5, @33, KC0[], KC1[]
	JUMP @10 POP:1
	LOOP_BREAK @10
	POP @10 POP:1
	END_LOOP @6
	POP @12 POP:1
	ALU 3, @39, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 16:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	ALU clause starting at 18:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.X, KC0[2].Z, PV.W,  
	ALU clause starting at 27:
	  MOV   T0.X, literal.x,  
	  SETE_INT * T1.W, T1.X, 0.0,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 31:
	  MOV * T0.X, literal.x,  
	0(0.000000e+00), 0(0.000000e+00)
	ALU clause starting at 33:
	  SETGT_UINT   T0.Y, T1.X, 1,  
	  LSHR   T0.Z, T1.X, 1,  
	  AND_INT * T1.W, T1.X, 1,  
	  MOV * T1.X, PV.Z,  
	  ADD_INT * T0.X, T0.X, T1.W,  
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), T0.Y, 0.0,  
	ALU clause starting at 39:
	  MOV * T0.Y, KC0[2].Y,  
	  ADD_INT * T0.W, PV.Y, T0.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	bitcount, .Lfunc_end0-bitcount
	.size	bitcount$local, .Lfunc_end0-bitcount
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
