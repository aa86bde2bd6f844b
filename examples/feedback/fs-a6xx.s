; a feedback loop: reads colour target 0 (t#0) at its own pixel and adds 0.5 to red
; frag coord x, y in r2 (1/16 pixel): >> 4 is the pixel, isam fetches that texel unfiltered
shr.b r1.x, r2.x, 4
shr.b r1.y, r2.y, 4
isam (f32)(xyzw)r0.x, r1.x, s#0, t#0
(sy)add.f r0.x, r0.x, (0.5)
end
