	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	constant_table                  ; -- Begin function constant_table
	.p2align	8
	.type	constant_table,@function
constant_table:                         ; @constant_table
constant_table$local:
	.type	constant_table$local,@function
; %bb.0:
	ALU 8, @16, KC0[CB0:0-32], KC1[]
	TEX 0 @10
	ALU 5, @25, KC0[], KC1[]
	TEX 0 @12
	ALU 5, @31, KC0[], KC1[]
	TEX 0 @14
	ALU 8, @37, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 10:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	Fetch clause starting at 12:
	  VTX_READ_32 T0.X, T0.X, 0, #2
	Fetch clause starting at 14:
	  VTX_READ_32 T1.X, T1.X, 0, #2
	ALU clause starting at 16:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 25:
	  AND_INT * T2.W, T0.X, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  LSHL * T2.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, literal.x, PV.W,  
	@table, 0(0.000000e+00)
	ALU clause starting at 31:
	  AND_INT * T0.W, T0.W, literal.x,  
	7(9.809089e-45), 0(0.000000e+00)
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T1.X, literal.x, PV.W,  
	@table, 0(0.000000e+00)
	ALU clause starting at 37:
	  MULLO_INT   T0.X, T0.X, literal.x,  
	  MULLO_INT   T0.Y (MASKED), T0.X, literal.x,  
	  MULLO_INT   T0.Z (MASKED), T0.X, literal.x,  
	  MULLO_INT * T0.W (MASKED), T0.X, literal.x,  
	10(1.401298e-44), 0(0.000000e+00)
	  ADD_INT   T0.X, PV.X, T1.X,  
	  ADD_INT * T0.W, KC0[2].Y, T1.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	constant_table, .Lfunc_end0-constant_table
	.size	constant_table$local, .Lfunc_end0-constant_table
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.type	table,@object                   ; @table
	.text
	.globl	table
	.p2align	2
table:
table$local:
	.long	3                               ; 0x3
	.long	1                               ; 0x1
	.long	4                               ; 0x4
	.long	1                               ; 0x1
	.long	5                               ; 0x5
	.long	9                               ; 0x9
	.long	2                               ; 0x2
	.long	6                               ; 0x6
	.size	table, 32

	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.weak	__oclc_ABI_version
	.p2align	2
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
