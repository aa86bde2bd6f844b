/**
 * The feedback-loop tests' shared pieces (overlap, gmem-feedback, gmem-feedback-zs-msaa): full-screen
 * quads and the FS that samples the target (or depth) it draws into.
 */

export const f32 = (a: number[]): Uint8Array => new Uint8Array(new Float32Array(a).buffer);
export const consts = (a: number[]): Uint32Array => new Uint32Array(new Float32Array(a).buffer);

/** One full-screen quad (two triangles sharing an edge: no pixel twice); z from x (default 0.5). */
export const quad = (z: (x: number) => number = () => 0.5): number[] => {
  const v = (x: number, y: number): number[] => [x, y, z(x), 1, 0, 0, 0, 1];
  return [...v(-1, -1), ...v(1, -1), ...v(-1, 1), ...v(-1, 1), ...v(1, -1), ...v(1, 1)];
};

/**
 * Frag coord x, y (1/16 pixel, the centre at x * 16 + 8) times c0.x to the texel's normalized
 * coordinate; sample t#0 (nearest), add c0.y to red.
 */
export const FEEDBACK_FS = `cov.u32f32 r1.x, r2.x
cov.u32f32 r1.y, r2.y
mul.f r1.x, r1.x, c0.x
mul.f r1.y, r1.y, c0.x
sam (f32)(xyzw)r0.x, r1.x, s#0, t#0
(sy)add.f r0.x, r0.x, c0.y
end
`;
