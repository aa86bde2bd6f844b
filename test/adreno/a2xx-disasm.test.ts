/**
 * The a2xx shader disassembler (src/adreno/a2xx/disasm.ts) on words taken from the dEQP a201
 * capture (expected text as in Mesa's cffdump log there), and on random words.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disasmA2xx } from '../../src/adreno/a2xx/disasm.js';

/** A vertex shader: CF program (EXEC at 3 with a fetch+fetch pair, EXEC at 5, EXEC_END, ALLOCs) and its slots. */
function vs(): Uint32Array {
  const w = new Uint32Array(21);
  // CF 0..5 as 16-bit halves: ALLOC POSITION; EXEC ADDR(0x3) CNT(0x2); ALLOC PARAM/PIXEL; EXEC ADDR(0x5) CNT(0x1); EXEC_END ADDR(0x6)...; NOP
  const halves = [0x0000, 0x0000, 0xc200, 0x2003, 0x0007, 0x1000, 0x0000, 0x0000, 0xc400, 0x1005, 0x0002, 0x1000, 0x1006, 0x0000, 0x2000, 0, 0, 0];
  for (let i = 0; i < halves.length; i++) w[i >> 1]! |= halves[i]! << ((i & 1) * 16);
  w.set([0x19481000, 0x00262688, 0x00000020], 9);
  w.set([0x13480000, 0x40262688, 0x00001020], 12);
  w.set([0x000f803e, 0x00000000, 0xc2010100], 15);
  w.set([0x4c110302, 0x0000006c, 0x60400201], 18);
  return w;
}

test('a2xx disasm: CF words, fetches, ALU with export comment and scalar co-issue', () => {
  const out = disasmA2xx(vs(), 'VS');
  assert.equal(out[0], '    0000 0000 c200            \tALLOC POSITION SIZE(0x0)');
  assert.equal(out[1], '    2003 0007 1000            \tEXEC ADDR(0x3) CNT(0x2)');
  assert.equal(out[2], '03: 19481000 00262688 00000020\t   (S)FETCH:\tVERTEX\tR1.xyzw = R0.x FMT_32_32_32_32_FLOAT UNSIGNED STRIDE(32) CONST(20, 0)');
  assert.equal(out[3], '04: 13480000 40262688 00001020\t      FETCH:\tVERTEX\tR0.xyzw = R0.x FMT_32_32_32_32_FLOAT UNSIGNED STRIDE(32) OFFSET(16) CONST(20, 1)');
  assert.equal(out[4], '    0000 0000 c400            \tALLOC PARAM/PIXEL SIZE(0x0)');
  assert.equal(out[5], '    1005 0002 1000            \tEXEC ADDR(0x5) CNT(0x1)');
  assert.equal(out[6], '05: 000f803e 00000000 c2010100\t   (S)ALU:\tMAXv\texport62 = R1, R1\t; gl_Position');
  assert.equal(out[7], '    1006 0000 2000            \tEXEC_END ADDR(0x6) CNT(0x1)');
  assert.equal(out[8], '06: 4c110302 0000006c 60400201\t      ALU:\tADDv\tR2.x___ = C0, R2');
  assert.equal(out[9], '                          \t\t    \tRECIP_IEEE\tR3.x___ = R1.xxxx');
  assert.equal(out[10], '    0000 0000 0000            \tNOP');
  assert.equal(out.length, 11);
  // the export comment depends on the stage
  assert.ok(!disasmA2xx(vs(), 'FS').some((l) => l.includes('gl_Position')));
});

test('a2xx disasm: texture sample line', () => {
  // EXEC ADDR(0x1) CNT(0x1), serialize: fetch with sync; slot 1 a SAMPLE
  const w = Uint32Array.of(0x00031001, 0x00001000, 0, 0x90000001, 0x1ffff688, 0x00000002);
  const out = disasmA2xx(w, 'FS');
  assert.deepEqual(out, [
    '    1001 0003 1000            \tEXEC ADDR(0x1) CNT(0x1)',
    '01: 90000001 1ffff688 00000002\t   (S)FETCH:\tSAMPLE\tR0.xyzw = R0.xyz CONST(0) LOCATION(CENTER)',
    '    0000 0000 0000            \tNOP',
  ]);
});

test('a2xx disasm: random words never throw', () => {
  let s = 0x2a2a2a2a;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  for (let n = 0; n < 600; n++) {
    const w = new Uint32Array(1 + (next() % 64));
    for (let i = 0; i < w.length; i++) w[i] = next();
    for (const st of ['VS', 'FS', undefined] as const) {
      const out = disasmA2xx(w, st);
      assert.ok(Array.isArray(out) && out.every((l) => typeof l === 'string' && !l.includes('undefined')));
    }
  }
  assert.deepEqual(disasmA2xx(new Uint32Array(0), 'VS'), []);
});
