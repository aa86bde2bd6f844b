/**
 * The part of the WebAssembly JavaScript API the wasm tier uses, typed here: the project's lib
 * settings (ES2022, no DOM) do not declare it, and it is the same in Node and in browsers.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmModule {
  readonly __module?: never;
}
export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
export interface WasmApi {
  Memory: new (d: { initial: number; maximum?: number; shared?: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (m: WasmModule, imports?: Record<string, Record<string, unknown>>) => WasmInstance;
  validate(bytes: Uint8Array): boolean;
}

export const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
