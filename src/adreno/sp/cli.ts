/** `gpusim adreno dispatch <manifest.json>`: run an ir3 compute dispatch through the CP and the SP model. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { intOption } from '../../core/numbers.js';
import { Diagnostics, StrictStop } from '../../core/diagnostics.js';
import { checkIr3, readIr3Manifest, runIr3Dispatch } from './dispatch.js';
import { dispatchRd } from './driver.js';

export function dispatchCommand(values: Record<string, unknown>, rest: string[], out: (l: string) => void): number {
  const file = rest[0];
  if (!file) throw new UsageError('adreno dispatch: missing manifest (.json)');
  const seed = intOption(values['seed'], 'adreno dispatch: --seed', { max: 0xffffffff }) ?? 1;
  const order = values['order'] === undefined ? 'inorder' : String(values['order']);
  if (order !== 'inorder' && order !== 'random') throw new UsageError(`--order must be inorder or random, got '${order}'`);
  const m = readIr3Manifest(file);
  const diag = new Diagnostics({ strict: !!values['strict'] });
  let r;
  try {
    const rd = values['rd'] === undefined ? undefined : String(values['rd']);
    r = runIr3Dispatch(m, { seed, order, diag, ...(rd ? { onBuilt: (b) => writeFileSync(rd, dispatchRd(b, m.gpuId)) } : {}) });
  } catch (e) {
    if (!(e instanceof StrictStop)) throw e;
    const d = e.diagnostic;
    out(`${d.severity}: ${d.id}: ${d.message} (${Object.entries(d.where).map(([k, v]) => `${k} ${v}`).join(', ')}) -- stopped (--strict)`);
    return 1;
  }
  const dir = values['out'] === undefined ? undefined : String(values['out']);
  if (dir) {
    mkdirSync(dir, { recursive: true });
    for (const name of m.outputs) {
      const b = r.buffers.get(name);
      if (b) writeFileSync(join(dir, `${name}.bin`), b);
    }
  }
  const checks = checkIr3(m, r.buffers);
  const ok = checks.every((c) => c.pass);
  if (values['json']) {
    out(JSON.stringify({ manifest: file, waves: r.waves, instructions: r.instructions, fiberInstructions: r.fiberInstructions, checks, diagnostics: r.diag.list }));
  } else {
    for (const d of r.diag.list.slice(0, 50)) out(`${d.severity}: ${d.id}: ${d.message} (${Object.entries(d.where).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    for (const c of checks) out(`${c.pass ? 'PASS' : 'FAIL'} ${c.name}${c.pass ? '' : `: ${c.mismatches} mismatch(es), first ${c.detail}`}`);
    out(`-- ${r.waves} wave(s), ${r.instructions} wave-instruction(s), ${r.fiberInstructions} fiber-instruction(s), ${r.diag.list.length} diagnostic(s)`);
  }
  return ok ? 0 : 1;
}
