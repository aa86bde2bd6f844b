/**
 * The block cache on disk (issue 24; a shader cache, as drivers keep one): the plans of the basic
 * blocks a `gpusim run` generated (amd/engine/block.ts: the block function's source, what its
 * bound values are, and the WebAssembly bytes of its translated runs) are saved when the run ends,
 * and a later process running the same code at the same address on the same target, wave size and
 * VGPR count takes them instead of generating and translating them again. Its ops are still
 * decoded and bound (the plan is used only if they bind to the same handler sources: block.ts
 * `fits`), and its functions and modules are still compiled by V8; what is skipped is the
 * translators' own work, which a fresh process runs as cold JavaScript (a fresh conv2d 256x256
 * dispatch spent about a fifth of its time there).
 *
 * One directory per build ($XDG_CACHE_HOME/gpusim or ~/.cache/gpusim, `blocks-` then Node's
 * version and architecture and the size and time of the build's dist/.tsbuildinfo: another build
 * may generate other code for the same instructions), one file per block, named by a hash of
 * its key (keyHash: node:crypto alone took ~10 ms to load in a fresh process), holding the key;
 * at most MAX_BLOCK_FILES of them. Directories of other builds are removed whenever this one is
 * written. Without a build stamp, or with GPUSIM_CODE_CACHE=0 or GPUSIM_BLOCK_CACHE=0, there is no
 * cache; any failure to read or write falls back to generating.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BlockStore, PlanRecord } from '../amd/engine/block.js';
import { cacheDir, DIST } from './code-cache-node.js';

/** A block cache that can save what the process made. */
export interface SavedBlockStore extends BlockStore {
  /** Writes the records of the plans made since it opened; returns how many. */
  save(): number;
}

const FORMAT = 1;

/**
 * Most blocks kept per build (a block's file is 2-50 KB: the bundled kernels make ~300): past it,
 * a save first removes the least recently written half.
 */
export const MAX_BLOCK_FILES = 2048;

/** The directory name of this build's block cache, or null without a build stamp. */
function buildDir(): string | null {
  try {
    const st = statSync(join(DIST, '.tsbuildinfo'));
    return `blocks-${FORMAT}-${process.version}-${process.arch}-${st.size}-${Math.round(st.mtimeMs)}`;
  } catch {
    return null;
  }
}

/**
 * The block cache of this build under `base` (default: the per-user cache directory), or null
 * when there is none (no build stamp, or turned off by the environment). `build` names the build
 * (tests); by default it is read off dist/. `maxFiles`: see MAX_BLOCK_FILES.
 */
export function openBlockStore(base: string = cacheDir(), build: string | null = buildDir(), maxFiles = MAX_BLOCK_FILES): SavedBlockStore | null {
  if (process.env['GPUSIM_CODE_CACHE'] === '0' || process.env['GPUSIM_BLOCK_CACHE'] === '0' || build === null) return null;
  const dir = join(base, build);
  const made: { key: string; record: () => PlanRecord }[] = [];
  const fileOf = (key: string) => join(dir, `${keyHash(key)}.json`);
  return {
    get(key) {
      let text: string;
      try {
        text = readFileSync(fileOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const j = JSON.parse(text) as { key?: unknown; record?: unknown };
        const r = j.key === key ? fromJson(j.record) : undefined;
        return isRecord(r) ? r : undefined;
      } catch {
        return undefined;
      }
    },
    made(key, record) {
      made.push({ key, record });
    },
    save() {
      if (made.length === 0) return 0;
      let n = 0;
      try {
        mkdirSync(dir, { recursive: true });
        const have = readdirSync(dir);
        if (have.length + made.length > maxFiles) {
          const byAge = have.map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs })).sort((x, y) => x.t - y.t);
          for (const { f } of byAge.slice(0, Math.max(0, have.length - Math.floor(maxFiles / 2)))) rmSync(join(dir, f), { force: true });
        }
        for (const { key, record } of made) {
          const file = fileOf(key);
          const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
          writeFileSync(tmp, JSON.stringify({ key, record: toJson(record()) }));
          renameSync(tmp, file);
          n++;
        }
        // Other builds' caches are dead weight.
        for (const f of readdirSync(base)) {
          if (f.startsWith('blocks-') && f !== build) rmSync(join(base, f), { recursive: true, force: true });
        }
      } catch {
        // a read-only or full cache directory: the next run generates again
      }
      made.length = 0;
      return n;
    },
  };
}

/**
 * The file name part of `key`: two 32-bit FNV-1a hashes of its UTF-16 code units (the standard
 * offset basis, and one more seed), as 16 hex digits. A collision only makes a miss (the file
 * holds its key).
 */
export function keyHash(key: string): string {
  let a = 0x811c9dc5, b = 0x6b43a9b5;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

const b64 = (v: Uint8Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
const bytes = (v: unknown): unknown => (typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v);

/**
 * A record as JSON: its byte arrays (`enter`, counter kinds, a run's translations) as base64
 * strings, and back (fromJson; its shape is checked after: isRecord). Explicit, not a reviver,
 * which a fresh process ran as cold code for every value of the file.
 */
function toJson(r: PlanRecord): unknown {
  const descs = r.descs.map((d) => {
    if (d.k === 'kinds' || d.k === 'trip') return { ...d, kinds: b64(d.kinds) };
    if (d.k === 'runner') return { ...d, bytes: { ...(d.bytes.cold ? { cold: b64(d.bytes.cold) } : {}), ...(d.bytes.hot ? { hot: b64(d.bytes.hot) } : {}) } };
    return d;
  });
  return { ...r, enter: b64(r.enter), descs };
}

function fromJson(j: unknown): unknown {
  if (j === null || typeof j !== 'object') return j;
  const r = j as Record<string, unknown>;
  const descs = Array.isArray(r['descs']) ? (r['descs'] as unknown[]).map((d) => {
    if (d === null || typeof d !== 'object') return d;
    const x = d as Record<string, unknown>;
    if (x['k'] === 'kinds' || x['k'] === 'trip') return { ...x, kinds: bytes(x['kinds']) };
    const b = x['bytes'] as Record<string, unknown> | null | undefined;
    if (x['k'] === 'runner' && b !== null && typeof b === 'object') return { ...x, bytes: { ...(b['cold'] !== undefined ? { cold: bytes(b['cold']) } : {}), ...(b['hot'] !== undefined ? { hot: bytes(b['hot']) } : {}) } };
    return x;
  }) : r['descs'];
  return { ...r, enter: bytes(r['enter']), descs };
}

/** The fields block.ts reads off a record, with their types (anything else is a miss). */
function isRecord(r: unknown): r is PlanRecord {
  if (r === null || typeof r !== 'object') return false;
  const x = r as Record<string, unknown>;
  const nums = (a: unknown) => Array.isArray(a) && a.every((v) => Number.isInteger(v));
  return typeof x['src'] === 'string' && x['enter'] instanceof Uint8Array && Number.isInteger(x['inlined']) && Number.isInteger(x['translated'])
    && Number.isInteger(x['fused']) && nums(x['take']) && nums(x['cis']) && Array.isArray(x['keys']) && (x['keys'] as unknown[]).every((k) => k === null || typeof k === 'string')
    && Array.isArray(x['descs']) && (x['descs'] as unknown[]).every(isDesc);
}

function isDesc(d: unknown): boolean {
  if (d === null || typeof d !== 'object') return false;
  const x = d as Record<string, unknown>;
  switch (x['k']) {
    case 'stepDone':
    case 'stepRefs':
      return true;
    case 'helper':
    case 'value':
      return typeof x['name'] === 'string';
    case 'kinds':
    case 'trip':
      return x['kinds'] instanceof Uint8Array;
    case 'runner': {
      const b = x['bytes'] as Record<string, unknown> | null;
      return Number.isInteger(x['at']) && Number.isInteger(x['n']) && typeof x['loop'] === 'boolean' && typeof x['salu'] === 'boolean' && typeof x['hasHot'] === 'boolean'
        && b !== null && typeof b === 'object' && (b['cold'] === undefined || b['cold'] instanceof Uint8Array) && (b['hot'] === undefined || b['hot'] instanceof Uint8Array);
    }
    default:
      return false;
  }
}
