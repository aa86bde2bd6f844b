; A hand-written ir3 compute kernel with a loop (a630): o[i] = count * a[i] + count*(count-1)/2,
; count = c0.x. HLSQ preloads the local id in r0.x and the work-group id in r48.x.
; Run it:  gpusim adreno dispatch examples/ir3-kernel/sum.json   (assembled by gpusim, no Mesa needed)
shl.b r1.x, r48.x, 6              ; 64 fibers per work-group
(rpt5)nop
add.u r1.x, r1.x, r0.x            ; global id
(rpt5)nop
ldib.b.untyped.1d.u32.1.imm r2.x, r1.x, 1   ; a[i] (IBO 1)
mov.u32u32 r3.x, 0                ; acc
mov.u32u32 r3.y, 0                ; k
loop:
cmps.u.ge p0.x, r3.y, c0.x
(rpt5)nop
br p0.x, #done
(sy)add.u r3.x, r3.x, r2.x        ; acc += a[i]
(rpt5)nop
add.u r3.x, r3.x, r3.y            ; acc += k
add.u r3.y, r3.y, 1
(rpt5)nop
jump #loop
done:
(jp)stib.b.untyped.1d.u32.1.imm r3.x, r1.x, 0   ; o[i] (IBO 0)
end
