/**
 * R600/Evergreen figures: CF instructions/s and ALU instruction groups/s (per CPU-second of this
 * thread) on clang-19 cypress kernels from kernels/r600/bin, each checked against a CPU reference
 * before its rate is reported: vadd (straight-line, fetch + RAT), matmul (a loop: LOOP_START_DX10 /
 * END_LOOP around ALU and fetch clauses) and loop_break (divergent breaks: PUSH/POP/LOOP_BREAK).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { ROOT } from '../tools/gen/run.js';
import { loadR600Object } from '../src/r600/isa/object.js';
import { runR600Kernel, type R600Launch } from '../src/runtime/r600.js';
import type { BenchResult } from './main.js';

interface Case {
  readonly name: string;
  readonly launch: R600Launch;
  /** CPU reference check of the output bytes: the number of mismatching elements. */
  readonly check: (out: Readonly<Record<string, Uint8Array>>) => number;
}

const bytes = (a: Float32Array | Int32Array): Uint8Array => new Uint8Array(a.buffer.slice(0));
const f = Math.fround;

function cases(): Case[] {
  const obj = (n: string) => loadR600Object(new Uint8Array(readFileSync(join(ROOT, 'kernels/r600/bin/cypress', n + '.o'))), n);
  const N = 1 << 14;
  const a = Float32Array.from({ length: N }, (_, i) => ((i * 37) % 101) * 0.25 - 12);
  const b = Float32Array.from({ length: N }, (_, i) => ((i * 53) % 97) * 0.5 - 20);
  const M = 48;
  const ma = Float32Array.from({ length: M * M }, (_, i) => ((i * 7) % 13) - 6);
  const mb = Float32Array.from({ length: M * M }, (_, i) => ((i * 11) % 17) - 8);
  const L = 4096;
  const lin = Int32Array.from({ length: L }, (_, i) => ((i * 2654435761) >>> 0) % 97 === 0 ? -1 : (i * 31) % 50);
  return [
    {
      name: 'vadd',
      launch: { object: obj('vadd'), grid: [N, 1, 1], block: [64, 1, 1], buffers: [{ name: 'c', type: 'f32', data: new Uint8Array(N * 4) }, { name: 'a', type: 'f32', data: bytes(a) }, { name: 'b', type: 'f32', data: bytes(b) }], args: [{ kind: 'buffer', name: 'c' }, { kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'scalar', type: 'i32', value: N }] },
      check: (o) => {
        const c = new Float32Array(o['c']!.buffer.slice(o['c']!.byteOffset, o['c']!.byteOffset + N * 4));
        let bad = 0;
        for (let i = 0; i < N; i++) if (c[i] !== f(a[i]! + b[i]!)) bad++;
        return bad;
      },
    },
    {
      name: 'matmul',
      launch: { object: obj('matmul'), grid: [M, M, 1], block: [8, 8, 1], buffers: [{ name: 'c', type: 'f32', data: new Uint8Array(M * M * 4) }, { name: 'a', type: 'f32', data: bytes(ma) }, { name: 'b', type: 'f32', data: bytes(mb) }], args: [{ kind: 'buffer', name: 'c' }, { kind: 'buffer', name: 'a' }, { kind: 'buffer', name: 'b' }, { kind: 'scalar', type: 'i32', value: M }] },
      check: (o) => {
        const c = new Float32Array(o['c']!.buffer.slice(o['c']!.byteOffset, o['c']!.byteOffset + M * M * 4));
        let bad = 0;
        for (let r = 0; r < M; r++)
          for (let col = 0; col < M; col++) {
            let s = 0;
            for (let k = 0; k < M; k++) s = f(s + f(ma[r * M + k]! * mb[k * M + col]!));
            if (c[r * M + col] !== s) bad++;
          }
        return bad;
      },
    },
    {
      name: 'loop_break',
      launch: { object: obj('loop_break'), grid: [L, 1, 1], block: [64, 1, 1], buffers: [{ name: 'out', type: 'i32', data: new Uint8Array(L * 4) }, { name: 'in', type: 'i32', data: bytes(lin) }], args: [{ kind: 'buffer', name: 'out' }, { kind: 'buffer', name: 'in' }, { kind: 'scalar', type: 'i32', value: 64 }] },
      check: (o) => {
        const out = new Int32Array(o['out']!.buffer.slice(o['out']!.byteOffset, o['out']!.byteOffset + L * 4));
        let bad = 0;
        for (let i = 0; i < L; i++) {
          let s = 0;
          for (let k = 0; k < 64; k++) {
            const v = lin[(i + k) % 64]!;
            if (v < 0) break;
            s += v;
          }
          if (out[i] !== s) bad++;
        }
        return bad;
      },
    },
  ];
}

export function benchR600(): BenchResult[] {
  const out: BenchResult[] = [];
  for (const c of cases()) {
    runR600Kernel(c.launch); // warm-up (JIT)
    const u0 = cpuUsage();
    const t0 = performance.now();
    const run = runR600Kernel(c.launch);
    const wallMs = performance.now() - t0;
    const u = cpuUsage(u0);
    const cpuS = (u.user + u.system) / 1e6;
    const s = run.result!.stats;
    const bad = c.check(run.buffers);
    out.push({
      name: `r600 ${c.name}`,
      figures: {
        reference: bad === 0 && run.diagnostics.length === 0 ? 'ok' : `${bad} mismatches, ${run.diagnostics.length} diagnostics`,
        cfInstructions: s.cfInstructions,
        aluGroups: s.aluGroups,
        'cf/cpu-s': Math.round(s.cfInstructions / cpuS),
        'aluGroups/cpu-s': Math.round(s.aluGroups / cpuS),
        'laneOps/cpu-s': Math.round(s.laneOps / cpuS),
        wallMs: Math.round(wallMs),
      },
    });
  }
  return out;
}
