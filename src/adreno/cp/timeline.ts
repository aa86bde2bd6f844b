/**
 * The CP's packets on a Chrome trace (`gpusim adreno run --timeline FILE`): each executed packet
 * is a slice over the CP's cycle counter (PERF_CP_ALWAYS_COUNT: one cycle per packet dword plus
 * the fixed costs cp.ts charges), from its start until the next packet at its IB level or above,
 * so an indirect buffer's slice holds the packets it ran; each submit is a slice around them.
 */
import type { TraceEvents } from '../../core/trace-events.js';
import type { ExecutedPacket } from './cp.js';

/** What one µs of a CP timeline is. */
export const CP_CLOCK = 'a6xx CP cycles (PERF_CP_ALWAYS_COUNT of the model), shown as µs';

interface Open {
  readonly name: string;
  readonly level: number;
  readonly start: number;
  readonly args: Readonly<Record<string, unknown>>;
}

export class CpTimeline {
  readonly out: TraceEvents;
  private readonly pid: number;
  private readonly open: Open[] = [];
  private submitStart = -1;
  private submitIndex = 0;

  constructor(out: TraceEvents, pid = 1, name = 'CP') {
    this.out = out;
    this.pid = pid;
    out.process(pid, name, pid);
    out.thread(pid, 1, 'packets');
  }

  /** A submit starts at cycle `t`. */
  beginSubmit(t: number): void {
    this.submitStart = t;
  }

  /** Packet `p` (named `name`) began at cycle `t`. */
  packet(p: ExecutedPacket, name: string, t: number): void {
    this.close(p.level, t);
    this.open.push({ name, level: p.level, start: t, args: { iova: '0x' + p.iova.toString(16), dwords: p.count, level: p.level } });
  }

  /** The submit ended at cycle `t` (`stop`: why the CP stopped). */
  endSubmit(t: number, stop: string): void {
    this.close(-Infinity, t);
    if (this.submitStart >= 0) this.out.slice(`submit ${this.submitIndex}`, 'cp.submit', this.pid, 1, this.submitStart, t, { stop });
    this.submitIndex++;
    this.submitStart = -1;
  }

  private close(level: number, t: number): void {
    while (this.open.length && this.open[this.open.length - 1]!.level >= level) {
      const o = this.open.pop()!;
      this.out.slice(o.name, 'cp.packet', this.pid, 1, o.start, t, o.args);
    }
  }
}
