/** `gpusim pm4 decode <ib.bin> --gfx gfx9|gfx10.3|gfx11 [--json]`: the AMD PM4 packet decoder. */
import { readFileSync } from 'node:fs';
import { EXIT_FINDING, EXIT_OK, type CliIO, type Command } from '../command.js';
import { UsageError } from '../../core/errors.js';
import { Diagnostics } from '../../core/diagnostics.js';
import { parsePm4Gen } from '../../amd/cp/regdb.js';
import { PrintVisitor } from '../../amd/cp/printer.js';
import { AnalyseVisitor } from '../../amd/cp/cp.js';
import { dwordsFromBytes, walkPm4, type Pm4Packet } from '../../amd/cp/walker.js';

const HELP = `usage: gpusim pm4 decode <ib.bin> --gfx gfx9|gfx10.3|gfx11 [--json]

Decode a raw AMD PM4 stream (little-endian dwords): every packet with its header (type,
IT opcode, count, predicate, shader type), its body dword by dword, and its register writes
decoded field by field from the generation's register database (Mesa's register JSON).
INDIRECT_BUFFER packets are shown, not followed (a raw file has no GPU memory).

  --gfx G    gfx9 (gfx900), gfx10.3 (gfx1030) or gfx11 (gfx1100); required
  --json     one JSON record per packet instead of text

Exit codes: 0 ok, 1 diagnostics (packets that parse but break a rule),
2 malformed stream (bad header, count past the end, unknown opcode) or bad usage.`;

async function run(values: Record<string, unknown>, positionals: string[], io: CliIO): Promise<number> {
  const [sub, file] = positionals;
  if (sub !== 'decode') throw new UsageError(sub === undefined ? 'pm4: missing subcommand (decode)' : `pm4: unknown subcommand '${sub}' (decode)`);
  if (!file) throw new UsageError('pm4 decode: missing stream file');
  if (values['gfx'] === undefined) throw new UsageError('pm4 decode: --gfx gfx9|gfx10.3|gfx11 is required');
  const gen = parsePm4Gen(String(values['gfx']));
  const json = !!values['json'];
  const words = dwordsFromBytes(new Uint8Array(readFileSync(file)));
  const lines: string[] = [];
  const flush = (): void => {
    if (lines.length) io.stdout(lines.join('\n') + '\n');
    lines.length = 0;
  };
  const out = (l: string): void => {
    lines.push(l);
    if (lines.length >= 4096) flush();
  };
  const diag = new Diagnostics();
  const printer = new PrintVisitor(gen, out, { json });
  const analyser = new AnalyseVisitor(gen, diag);
  let stats;
  try {
    stats = walkPm4(words, {
      packet: (p: Pm4Packet) => { printer.packet(p); analyser.packet(p); },
      skipIb: (va, n, level) => printer.skipIb(va, n, level),
    }, { gen });
  } finally {
    flush();
  }
  for (const d of diag.list) {
    if (json) out(JSON.stringify({ diagnostic: d }));
    else out(`${d.severity}: ${d.id} at dword ${String(d.where['offset'])}: ${d.message}`);
  }
  if (!json) out(`-- ${stats.packets} packet(s), ${words.length} dwords, ${diag.list.filter((d) => d.severity !== 'info').length} problem(s)`);
  flush();
  return diag.list.some((d) => d.severity !== 'info') ? EXIT_FINDING : EXIT_OK;
}

export const pm4Command: Command = {
  name: 'pm4',
  summary: 'decode AMD PM4 command streams (GFX9, GFX10.3, GFX11)',
  help: HELP,
  options: { gfx: { type: 'string' }, json: { type: 'boolean' } },
  positionals: true,
  run,
};
