/**
 * The package entry (`import { Pm4Builder, ... } from 'gpusim'`): the library API for building
 * and running AMD command buffers and kernels. Everything here is also reachable by its own
 * module path; this file only re-exports, so the API docs/library-api.md documents is in one place.
 *
 * - Command buffers: `Pm4Builder` emits real PM4 (type-3 packets with register offsets, fields and
 *   enums from the generation's register database), `emitKernelDispatch` the PM4 of a kernel
 *   dispatch, `walkPm4` + `PrintVisitor` decode a stream.
 * - Execution: `CommandProcessor` runs a stream on a `Memory`; give it `onDraw` from a
 *   `GfxPipeline` to render draws, `launch` from `computeLauncher` (or use `pm4Machine`) to run
 *   dispatches. `runScene` builds and runs a whole `gpusim draw` scene.
 * - Kernels: `loadCodeObject`, `loadCode`, `setupLaunch`, `runKernel`.
 */
export { Pm4Builder, DST_SEL, SRC_SEL, WAIT_FN, DATA_SEL, type Pkt3Options } from './amd/cp/builder.js';
export { IT, Pm4Error, pkt3Header, opcodeName } from './amd/cp/pm4.js';
export { regDb, PM4_GENS, parsePm4Gen, type Pm4Gen, type RegDb } from './amd/cp/regdb.js';
export { walkPm4, dwordsFromBytes, type Pm4Packet, type Pm4Visitor, type WalkOptions, type WalkStats } from './amd/cp/walker.js';
export { PrintVisitor, describePacket, type PrintedPacket } from './amd/cp/printer.js';
export { CommandProcessor, type CpOptions, type DrawRecord, type DispatchRecord, type EventRecord, type ComputeLaunch } from './amd/cp/cp.js';
export { GfxPipeline, type DrawOptions, type DrawStats, type PsLaunch, type ShaderCode } from './amd/gfx/pipeline.js';
export { runScene, runSceneFile, resolveTarget, targetBytes, SCENE_TARGETS, type SceneResult, type SceneOptions, type SceneTarget } from './runtime/draw-scene.js';
export { computeLauncher, dispatchDims, dispatchThroughPm4, emitKernelDispatch, pm4Machine, type KernelDispatchForm, type Pm4ComputeOptions, type Pm4DispatchResult } from './runtime/pm4.js';
export { loadCode, type LoadedCode } from './runtime/dispatch.js';
export { setupLaunch, type ArgValue, type LaunchSetup } from './runtime/hsa.js';
export { runKernel, type KernelLaunch, type KernelRun, type RunOptions } from './runtime/run.js';
export { loadCodeObject, type CodeObject, type CodeObjectKernel } from './formats/amdgpu/codeobject.js';
export { assemble, disassemble, type IsaTarget } from './amd/isa/target.js';
export { assembleSource, codeObjectOf, type AsmProgram, type AsmSourceOptions } from './amd/isa/source.js';
export { gfx11 } from './amd/isa/gfx11/index.js';
export { gfx10 } from './amd/isa/gfx10/index.js';
export { gfx9 } from './amd/isa/gfx9/index.js';
export { Memory } from './core/memory.js';
export { Diagnostics, type Diagnostic } from './core/diagnostics.js';
export { InputError } from './core/errors.js';
export { TraceEvents, type TraceEvent } from './core/trace-events.js';
export { WaveTimeline, SQ_CLOCK } from './amd/sq/timeline.js';
export { InstructionTracer, type TraceOptions } from './amd/sq/trace.js';
