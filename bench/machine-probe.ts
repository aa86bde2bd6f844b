/**
 * How much of two cores this machine gives at the moment of a measurement (bench/README, "Sixth
 * session"). A fixed pure-JavaScript loop (no allocation, no memory traffic beyond 8 KiB) runs
 * once on the main thread alone (`oneMs`), then on the main thread and a worker at the same time
 * (`twoMs`, until both are done). On a machine that runs both threads at full speed the two
 * timings are equal and `parallel` = 2 * oneMs / twoMs is 2.0.
 *
 * Why: on the 2-vCPU VM this benchmark was developed on, the host takes CPU away in phases that
 * last tens of seconds (the same loop: 21 ms per pass, then 35-50 ms), and in those phases two
 * busy threads get much less than twice one: a two-thread kernel run can reach no more than what
 * the probe measures next to it. The rdna3 suite reports the probe beside each case's figures.
 */
import { Worker } from 'node:worker_threads';

/** The probe loop: ~4 ms per pass on an idle core of the development machine. */
function spin(n: number): number {
  let a = 0;
  const t = new Float64Array(1024);
  for (let i = 0; i < n; i++) {
    const j = i & 1023;
    t[j] = t[j]! * 0.5 + i;
    a += t[(j * 7) & 1023]!;
  }
  return a;
}

const PASS = 4_000_000;

export interface ProbeReading {
  /** The loop on the main thread alone, ms. */
  readonly oneMs: number;
  /** The loop on the main thread and the worker at once, ms until both finished. */
  readonly twoMs: number;
  /** 2 * oneMs / twoMs: the speed-up two busy threads get here now (2.0 on two free cores). */
  readonly parallel: number;
}

export class MachineProbe {
  private readonly worker: Worker;
  private pending: ((v: number) => void) | null = null;

  private constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (v: number) => {
      const p = this.pending;
      this.pending = null;
      // Between readings the worker does not keep the process alive.
      worker.unref();
      p?.(v);
    });
    worker.unref();
  }

  /** Spawn the worker and let both threads' loops warm up (JIT) before any reading. */
  static async start(): Promise<MachineProbe> {
    // The worker runs the same function text as the main thread.
    const src = `const { parentPort } = require('node:worker_threads');\nconst spin = ${spin.toString()};\n`
      + `parentPort.on('message', (n) => { parentPort.postMessage(spin(n)); });`;
    const p = new MachineProbe(new Worker(src, { eval: true }));
    for (let i = 0; i < 3; i++) await p.read();
    return p;
  }

  private other(n: number): Promise<number> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.worker.ref();
      this.worker.postMessage(n);
    });
  }

  async read(): Promise<ProbeReading> {
    let t0 = performance.now();
    spin(PASS);
    const oneMs = performance.now() - t0;
    t0 = performance.now();
    const done = this.other(PASS);
    spin(PASS);
    await done;
    const twoMs = performance.now() - t0;
    return { oneMs, twoMs, parallel: (2 * oneMs) / twoMs };
  }

  close(): void {
    void this.worker.terminate();
  }
}

/**
 * `rounds` runs of each of `a` and `b`, the order flipped every round (a, b; b, a; ...): a machine
 * whose load drifts slows both alike, and on a shared VM the first of two back-to-back fresh
 * processes tends to run faster, so neither side always goes first.
 */
export function alternating<T>(rounds: number, a: () => T, b: () => T): { readonly a: T[]; readonly b: T[] } {
  const ra: T[] = [], rb: T[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ra.push(a());
      rb.push(b());
    } else {
      rb.push(b());
      ra.push(a());
    }
  }
  return { a: ra, b: rb };
}

/** Median of a list (the mean of the middle two for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
