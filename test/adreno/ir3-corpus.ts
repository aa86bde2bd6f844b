/** The ir3 corpus (../shared/ir3-corpus) for the ir3 tests: binaries and Mesa's listings. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS = join(import.meta.dirname, '../../../../shared/ir3-corpus');
export const haveCorpus = (): boolean => existsSync(CORPUS);

export function words(b: Uint8Array): Uint32Array {
  return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length - (b.length % 4)));
}

/** The corpus shaders: name, gpu_id, words (the whole binary), the listing lines, sizedwords. */
export function corpus(): { name: string; gpuId: number; bin: Uint32Array; lines: string[]; sizedwords: number }[] {
  const out = [];
  for (const f of readdirSync(join(CORPUS, 'bin')).sort()) {
    const m = /^(.*)\.a(\d+)\.bin$/.exec(f);
    if (!m) continue;
    const base = `${m[1]}.a${m[2]}`;
    const txt = readFileSync(join(CORPUS, 'out', `${base}.ir3.txt`), 'utf8').split('\n');
    const first = txt.findIndex((l) => l.length > 0 && !l.startsWith(';') && !l.startsWith('@'));
    const end = txt.findIndex((l) => l.startsWith('; CL: outputs'));
    const meta = JSON.parse(readFileSync(join(CORPUS, 'out', `${base}.meta.json`), 'utf8')) as { sizedwords: number };
    // ir3_shader_disasm passes gen * 100 as the gpu_id.
    out.push({ name: base, gpuId: Math.floor(parseInt(m[2]!, 10) / 100) * 100, bin: words(readFileSync(join(CORPUS, 'bin', f))), lines: txt.slice(first, end), sizedwords: meta.sizedwords });
  }
  return out;
}

