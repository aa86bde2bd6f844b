	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	259
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	divergent_loop                  ; -- Begin function divergent_loop
	.p2align	8
	.type	divergent_loop,@function
divergent_loop:                         ; @divergent_loop
divergent_loop$local:
	.type	divergent_loop$local,@function
; %bb.0:
	ALU_PUSH_BEFORE 12, @6, KC0[CB0:0-32], KC1[]
	JUMP @3 POP:1
	ALU_POP_AFTER 30, @19, KC0[], KC1[]
	ALU 4, @50, KC0[], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	ALU clause starting at 6:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[2].W,  
	  AND_INT * T1.W, PV.W, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
	  MOV   T0.X, literal.x,  
	  MOV   T0.Z, KC0[2].Y,  
	  SETE_INT * T2.W, PV.W, 0.0,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETE_INT * ExecMask,PredicateBit (MASKED), PV.W, 0.0,  
	ALU clause starting at 19:
	  ADD_INT   T0.Y, T1.W, literal.x,  
	  ADD_INT   T1.Z, T1.W, literal.y,  
	  ADD_INT * T1.W, T1.W, literal.z,  
	-3(nan), -2(nan)
	-1(nan), 0(0.000000e+00)
	  MULLO_INT   T0.X, T1.W, T1.Z,  
	  MULLO_INT   T0.Y (MASKED), T1.W, T1.Z,  
	  MULLO_INT   T0.Z (MASKED), T1.W, T1.Z,  
	  MULLO_INT * T0.W (MASKED), T1.W, T1.Z,  
	  MULLO_INT   T0.X (MASKED), T0.X, T0.Y,  
	  MULLO_INT   T0.Y, T0.X, T0.Y,  
	  MULLO_INT   T0.Z (MASKED), T0.X, T0.Y,  
	  MULLO_INT * T0.W (MASKED), T0.X, T0.Y,  
	  MULHI   T1.X, T1.W, T1.Z,  
	  MULHI   T1.Y (MASKED), T1.W, T1.Z,  
	  MULHI   T1.Z (MASKED), T1.W, T1.Z,  
	  MULHI * T1.W (MASKED), T1.W, T1.Z,  
	  BIT_ALIGN_INT   T1.Z, PV.X, T0.X, 1, 
	  LSHR * T2.W, T0.Y, 1,  
	  MULLO_INT   T0.X, T2.W, literal.x,  
	  MULLO_INT   T0.Y (MASKED), T2.W, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T2.W, literal.x,  
	  MULLO_INT * T0.W (MASKED), T2.W, literal.x,  
	1431655766(1.466016e+13), 0(0.000000e+00)
	  MULLO_INT   T0.X (MASKED), T1.Z, literal.x,  
	  MULLO_INT   T0.Y, T1.Z, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T1.Z, literal.x,  
	  MULLO_INT * T0.W (MASKED), T1.Z, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT * T2.W, T0.X, PV.Y,  
	  ADD_INT * T0.X, T1.W, PV.W,  
	ALU clause starting at 50:
	  LSHL * T0.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, T0.Z, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	divergent_loop, .Lfunc_end0-divergent_loop
	.size	divergent_loop$local, .Lfunc_end0-divergent_loop
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 1
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
