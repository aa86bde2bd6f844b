// The block cache (amd/engine/block.ts setBlockStore, runtime/block-cache-node.ts; issue 24): plans
// saved by one run and taken by a later one (a fresh Program, the in-memory plans dropped: what a
// new process sees) give the results of generating them, bit for bit, without translating a run;
// a damaged, foreign or unfitting record is a miss; the CLI saves and takes them across processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCases } from '../../bench/cases.js';
import { runKernel, type KernelLaunch } from '../../src/runtime/run.js';
import { loadCodeObject } from '../../src/formats/amdgpu/codeobject.js';
import { forgetPlans, setBlockStore, type BlockStore, type PlanRecord } from '../../src/amd/engine/block.js';
import { engineTime } from '../../src/amd/engine/timing.js';
import { hotRun, wasmTier } from '../../src/amd/engine/wasm/tier.js';
import { tiering } from '../../src/amd/engine/tier.js';
import { keyHash, openBlockStore } from '../../src/runtime/block-cache-node.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = join(ROOT, 'bin', 'gpusim.cjs');

/** One fast-engine run of `launch` on a Program of its own, with the plans in memory dropped first and `store` in use. */
function run(launch: KernelLaunch, store: BlockStore | null): { out: Record<string, Uint8Array>; waveInstructions: number } {
  forgetPlans();
  setBlockStore(store);
  try {
    const r = runKernel({ ...launch, codeObject: loadCodeObject(new Uint8Array(launch.codeObject as Uint8Array)) }, { engine: 'fast', order: 'roundrobin', seed: 5 });
    return { out: r.buffers, waveInstructions: r.report.waveInstructions };
  } finally {
    setBlockStore(null);
  }
}

/** Every block compiled at once (no waiting: tier.ts), so each kernel's blocks all get plans. */
function compiledAtOnce<T>(f: () => T): T {
  const saved = { ...tiering };
  tiering.minBytes = Infinity;
  tiering.visitsPerByteOp = 0;
  tiering.firstCalls = 0;
  try {
    return f();
  } finally {
    Object.assign(tiering, saved);
  }
}

function sameOutputs(a: Record<string, Uint8Array>, b: Record<string, Uint8Array>, what: string): void {
  assert.deepEqual(Object.keys(b).sort(), Object.keys(a).sort(), what);
  for (const k of Object.keys(a)) assert.ok(Buffer.from(a[k]!).equals(Buffer.from(b[k]!)), `${what}: ${k} differs`);
}

test('block cache: every bench kernel from saved plans (through the files) runs as generated, bit for bit, translating nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-blocks-'));
  try {
    for (const hot of [false, true]) {
      const savedHot = hotRun.calls;
      if (hot) hotRun.calls = 0;
      try {
        for (const c of benchCases({ root: ROOT, small: true })) {
          compiledAtOnce(() => {
            const what = `${c.name}${hot ? ' (hot runs)' : ''}`;
            const plain = run(c.launch, null);
            const writer = openBlockStore(dir, `test-${hot}`)!;
            const made = run(c.launch, writer);
            const saved = writer.save();
            assert.ok(saved > 0, `${what}: plans saved`);
            const cached = engineTime.cachedBlocks, runs = wasmTier.runs, translations = wasmTier.translations;
            const again = run(c.launch, openBlockStore(dir, `test-${hot}`));
            assert.ok(engineTime.cachedBlocks - cached >= saved, `${what}: ${engineTime.cachedBlocks - cached} plans taken of ${saved} saved`);
            assert.equal(wasmTier.runs, runs, `${what}: no run generated`);
            assert.equal(wasmTier.translations, translations, `${what}: no run translated`);
            sameOutputs(plain.out, made.out, `${what}, saving`);
            sameOutputs(plain.out, again.out, `${what}, from the cache`);
            assert.equal(again.waveInstructions, plain.waveInstructions);
            assert.equal(c.check(again.out), null, what);
          });
        }
      } finally {
        hotRun.calls = savedHot;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('block cache: a damaged file, another key under the name and a record that does not fit are misses', () => {
  const c = benchCases({ root: ROOT, small: true }).find((x) => x.name.startsWith('matmul'))!;
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-blocks-'));
  try {
    compiledAtOnce(() => {
      const plain = run(c.launch, null);
      const w = openBlockStore(dir, 'b')!;
      run(c.launch, w);
      const n = w.save();
      const files = readdirSync(join(dir, 'b')).sort();
      assert.equal(files.length, n);
      // One file cut short, one holding another key, one whose record's handler sources differ.
      writeFileSync(join(dir, 'b', files[0]!), readFileSync(join(dir, 'b', files[0]!), 'utf8').slice(0, 100));
      if (n > 1) {
        const j = JSON.parse(readFileSync(join(dir, 'b', files[1]!), 'utf8'));
        writeFileSync(join(dir, 'b', files[1]!), JSON.stringify({ ...j, key: `${j.key}x` }));
      }
      if (n > 2) {
        const j = JSON.parse(readFileSync(join(dir, 'b', files[2]!), 'utf8'));
        j.record.keys = j.record.keys.map((k: string | null) => (k === null ? 'x' : `${k} `));
        writeFileSync(join(dir, 'b', files[2]!), JSON.stringify(j));
      }
      const before = engineTime.cachedBlocks;
      const r = run(c.launch, openBlockStore(dir, 'b'));
      assert.equal(engineTime.cachedBlocks - before, Math.max(0, n - 3), 'the three records are misses, the others taken');
      sameOutputs(plain.out, r.out, 'with misses');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('block cache: a store that has nothing changes nothing; file names are 16 hex digits, distinct keys distinct', () => {
  const c = benchCases({ root: ROOT, small: true })[0]!;
  const empty: BlockStore & { asked: number; made: (k: string, r: () => PlanRecord) => void } = {
    asked: 0,
    get() {
      this.asked++;
      return undefined;
    },
    made() {},
  };
  compiledAtOnce(() => {
    const plain = run(c.launch, null);
    const before = engineTime.cachedBlocks;
    const r = run(c.launch, empty);
    assert.ok(empty.asked > 0);
    assert.equal(engineTime.cachedBlocks, before);
    sameOutputs(plain.out, r.out, 'empty store');
  });
  assert.match(keyHash('wasm|gfx1100|5632|1,2,3'), /^[0-9a-f]{16}$/);
  const names = new Set(Array.from({ length: 2000 }, (_, i) => keyHash(`wasm|gfx1100|${i * 4}|${i}`)));
  assert.equal(names.size, 2000);
});

test('block cache: a second `gpusim run` takes the first one\'s plans (same run.json), none with GPUSIM_BLOCK_CACHE=0', () => {
  const cache = mkdtempSync(join(tmpdir(), 'gpusim-xdg-'));
  try {
    const manifest = join(ROOT, 'kernels', 'manifests', 'matmul_tiled.json');
    const runCli = (env: Record<string, string>) => {
      const out = execFileSync(process.execPath, [CLI, 'run', manifest, '--json'], { env: { ...process.env, XDG_CACHE_HOME: cache, ...env }, maxBuffer: 1 << 26 }).toString();
      const j = JSON.parse(out);
      const t = j.timing;
      delete j.timing;
      delete j.timeMs;
      return { j, t };
    };
    const off = runCli({ GPUSIM_BLOCK_CACHE: '0' });
    assert.equal(off.t.blocksFromCache, 0);
    assert.ok(!existsSync(join(cache, 'gpusim')) || !readdirSync(join(cache, 'gpusim')).some((f) => f.startsWith('blocks-')), 'nothing saved');
    const first = runCli({});
    const second = runCli({});
    assert.equal(first.t.blocksFromCache, 0);
    assert.ok(second.t.blocksFromCache > 0, `plans taken: ${second.t.blocksFromCache}`);
    assert.deepEqual(second.j, first.j);
    assert.deepEqual(first.j, off.j);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('block cache: a run an earlier process found hot starts on its hot translation', () => {
  const c = benchCases({ root: ROOT, small: true }).find((x) => x.name.startsWith('matmul'))!;
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-blocks-'));
  const saved = hotRun.calls;
  hotRun.calls = 50;
  try {
    compiledAtOnce(() => {
      const plain = run(c.launch, null);
      const w = openBlockStore(dir, 'h')!;
      const hot0 = wasmTier.hot;
      run(c.launch, w);
      assert.ok(wasmTier.hot > hot0, 'the writer switched runs to their hot translation');
      w.save();
      const hot1 = wasmTier.hot, translations = wasmTier.translations;
      const r = run(c.launch, openBlockStore(dir, 'h'));
      assert.equal(wasmTier.hot, hot1, 'no switch: the reader ran the hot bytes from the first call');
      assert.equal(wasmTier.translations, translations);
      sameOutputs(plain.out, r.out, 'hot from the start');
    });
  } finally {
    hotRun.calls = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('block cache: a build keeps at most maxFiles blocks, the most recently written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpusim-blocks-'));
  try {
    const c = benchCases({ root: ROOT, small: true }).find((x) => x.name.startsWith('reduce_tree'))!;
    compiledAtOnce(() => {
      const w = openBlockStore(dir, 'cap', 8)!;
      run(c.launch, w);
      const n = w.save();
      assert.ok(n > 8, `${n} plans made`);
      // Over the cap already: the next save keeps the newest half before writing its own.
      const old = readdirSync(join(dir, 'cap'));
      const w2 = openBlockStore(dir, 'cap', 8)!;
      run(benchCases({ root: ROOT, small: true }).find((x) => x.name.startsWith('vaddmul'))!.launch, w2);
      const m = w2.save();
      const now = readdirSync(join(dir, 'cap'));
      assert.ok(now.length <= 4 + m, `${now.length} files after saving ${m}`);
      assert.ok(now.length < old.length + m, 'old blocks removed');
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
