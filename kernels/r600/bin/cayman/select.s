	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	select_k                        ; -- Begin function select_k
	.p2align	8
	.type	select_k,@function
select_k:                               ; @select_k
select_k$local:
	.type	select_k$local,@function
; %bb.0:
	ALU 9, @10, KC0[CB0:0-32], KC1[]
	TEX 1 @6
	ALU 8, @20, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_DWORD T0.X, T1.X
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T1.X, T1.X, 0, #1
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 10:
	  MULLO_INT   T0.X (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PV.Y, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].Y,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	  ADD_INT * T1.X, KC0[2].W, T0.W,  
	ALU clause starting at 20:
	  SETE   T0.Z, T0.X, T1.X,  
	  ADD * T1.W, T1.X, T1.X,  BS:VEC_120/SCL_212
	  CNDE   T0.Y, PV.Z, PV.W, 0.0, 
	  SETGT   T0.Z, T0.X, T1.X,  
	  ADD * T1.W, T0.X, -T1.X,  
	  CNDE   T0.X, PV.Z, PV.Y, PV.W, 
	  ADD_INT * T0.W, KC0[2].Y, T0.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	select_k, .Lfunc_end0-select_k
	.size	select_k$local, .Lfunc_end0-select_k
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
