	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	grid2d                          ; -- Begin function grid2d
	.p2align	8
	.type	grid2d,@function
grid2d:                                 ; @grid2d
grid2d$local:
	.type	grid2d$local,@function
; %bb.0:
	ALU 45, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	ALU clause starting at 4:
	  MULLO_INT   T0.X (MASKED), KC0[1].W, T1.Y,  
	  MULLO_INT   T0.Y (MASKED), KC0[1].W, T1.Y,  
	  MULLO_INT   T0.Z, KC0[1].W, T1.Y,  
	  MULLO_INT * T0.W (MASKED), KC0[1].W, T1.Y,  
	  ADD_INT * T0.W, PV.Z, T0.Y,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  MULLO_INT   T0.X (MASKED), T0.W, KC0[0].W,  
	  MULLO_INT   T0.Y (MASKED), T0.W, KC0[0].W,  
	  MULLO_INT   T0.Z, T0.W, KC0[0].W,  
	  MULLO_INT * T0.W (MASKED), T0.W, KC0[0].W,  
	  LSHL * T0.W, PV.Z, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.Z, KC0[2].Y, PV.W,  
	  LSHL * T0.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MULLO_INT   T1.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T1.Y (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T1.Z, KC0[1].Z, T1.X,  
	  MULLO_INT * T1.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT   T0.Z, T0.Z, T0.W,  
	  LSHL * T0.W, PV.Z, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.Z, PV.Z, PV.W,  
	  LSHL * T0.W, KC0[2].W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MULLO_INT   T1.X (MASKED), T1.Y, literal.x,  
	  MULLO_INT   T1.Y, T1.Y, literal.x,  
	  MULLO_INT   T1.Z (MASKED), T1.Y, literal.x,  
	  MULLO_INT * T1.W (MASKED), T1.Y, literal.x,  
	100(1.401298e-43), 0(0.000000e+00)
	  ADD_INT   T1.Z, PV.Y, T0.Y,  
	  ADD_INT * T0.W, T0.Z, T0.W,  
	  MULLO_INT   T0.X (MASKED), T1.X, literal.x,  
	  MULLO_INT   T0.Y, T1.X, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T1.X, literal.x,  
	  MULLO_INT * T0.W (MASKED), T1.X, literal.x,  
	1000(1.401298e-42), 0(0.000000e+00)
	  LSHR   T1.X, T0.W, literal.x,  
	  ADD_INT * T0.W, T1.Z, PV.Y,  
	2(2.802597e-45), 0(0.000000e+00)
	  MULLO_INT   T0.X, T0.X, literal.x,  
	  MULLO_INT   T0.Y (MASKED), T0.X, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T0.X, literal.x,  
	  MULLO_INT * T0.W (MASKED), T0.X, literal.x,  
	10(1.401298e-44), 0(0.000000e+00)
	  ADD_INT * T0.X, T0.W, PV.X,  
.Lfunc_end0:
	.size	grid2d, .Lfunc_end0-grid2d
	.size	grid2d$local, .Lfunc_end0-grid2d
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
