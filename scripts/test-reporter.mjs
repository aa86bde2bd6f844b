// A compact node:test reporter for `npm test`: one summary line when everything passes; for each
// failure its file, test name and error (with the first lines of the stack). Tests' own output is
// shown only for files that failed. Plain JavaScript: node --test loads it before anything runs.
export default async function* compact(source) {
  let pass = 0;
  let fail = 0;
  let skip = 0;
  let todo = 0;
  const files = new Set();
  const failures = [];
  const output = new Map();
  const started = Date.now();
  for await (const ev of source) {
    const d = ev.data ?? {};
    if (d.file) files.add(d.file);
    switch (ev.type) {
      case 'test:pass':
        if (d.details?.type === 'suite') break;
        if (d.skip !== undefined && d.skip !== false) skip++;
        else if (d.todo !== undefined && d.todo !== false) todo++;
        else pass++;
        break;
      case 'test:fail': {
        const e = d.details?.error;
        // A parent whose subtests failed: the subtests are reported themselves.
        if (e?.failureType === 'subtestsFailed') break;
        if (d.todo !== undefined && d.todo !== false) {
          todo++;
          break;
        }
        fail++;
        failures.push({ file: d.file ?? '?', name: d.name, error: e });
        break;
      }
      case 'test:stdout':
      case 'test:stderr': {
        const k = d.file ?? '?';
        const o = output.get(k) ?? [];
        if (o.length < 200) o.push(String(d.message).replace(/\n$/, ''));
        output.set(k, o);
        break;
      }
      default:
        break;
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  for (const f of failures) {
    yield `\nFAIL ${f.file}\n  ${f.name}\n`;
    const e = f.error?.cause ?? f.error;
    const msg = String(e?.message ?? e ?? 'failed').split('\n').slice(0, 30).join('\n    ');
    yield `    ${msg}\n`;
    const stack = String(e?.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !l.includes('node:')).slice(0, 4);
    if (stack.length) yield `${stack.map((l) => `    ${l.trim()}`).join('\n')}\n`;
  }
  const failedFiles = new Set(failures.map((f) => f.file));
  for (const f of failedFiles) {
    const o = output.get(f);
    if (o?.length) yield `\noutput of ${f}:\n${o.slice(0, 40).map((l) => `  ${l}`).join('\n')}\n`;
  }
  const parts = [`${pass} passed`];
  if (fail) parts.push(`${fail} FAILED`);
  if (skip) parts.push(`${skip} skipped`);
  if (todo) parts.push(`${todo} todo`);
  yield `${fail ? '\n' : ''}tests: ${parts.join(', ')} (${files.size} files, ${secs} s)\n`;
}
