/**
 * Where a wave's s_sendmsg goes besides its own effects: the stage that launched the wave (the
 * NGG primitive shader's GS_ALLOC_REQ reaches the GE/SPI of src/amd/gfx/pipeline.ts), as `exp`
 * reaches its export sink (exp.ts). Compute waves have none: one property read per message.
 */
import type { Wave } from '../wave/wave.js';

export interface MessageSink {
  /** `simm16` as encoded (the message id in its low bits); `pc` the s_sendmsg's address. */
  message(w: Wave, simm16: number, pc: number): void;
}

const sinks = new WeakMap<Wave, MessageSink>();

/** Whether any wave was ever given a sink in this process (the handlers test it first). */
export const messageSinks = { any: false };

export function setMessageSink(w: Wave, sink: MessageSink): void {
  messageSinks.any = true;
  sinks.set(w, sink);
}

/** Hand a sent message to the wave's sink, if it has one. */
export function sendToSink(w: Wave, simm16: number, pc: number): void {
  sinks.get(w)?.message(w, simm16, pc);
}
