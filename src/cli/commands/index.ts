/**
 * Every `gpusim` subcommand, in the order `gpusim --help` lists them. Each is imported only when
 * it runs (or for the help listing): a `gpusim run` process then loads the modules `run` needs and
 * not the Adreno, R600, draw or assembler ones (~150 ms less CPU at start-up, docs/speed.md).
 */
import type { Command } from '../command.js';

export const commandLoaders: readonly { readonly name: string; readonly load: () => Promise<Command> }[] = [
  { name: 'demo', load: async () => (await import('./demo.js')).demoCommand },
  { name: 'info', load: async () => (await import('./info.js')).infoCommand },
  { name: 'run', load: async () => (await import('./run.js')).runCommand },
  { name: 'bench', load: async () => (await import('./bench.js')).benchCommand },
  { name: 'disasm', load: async () => (await import('./disasm.js')).disasmCommand },
  { name: 'asm', load: async () => (await import('./asm.js')).asmCommand },
  { name: 'amd', load: async () => (await import('./amd.js')).amdCommand },
  { name: 'adreno', load: async () => (await import('./adreno.js')).adrenoCommand },
  { name: 'pm4', load: async () => (await import('./pm4.js')).pm4Command },
  { name: 'draw', load: async () => (await import('./draw.js')).drawCommand },
  { name: 'pops', load: async () => (await import('./pops.js')).popsCommand },
  { name: 'r600', load: async () => (await import('./r600.js')).r600Command },
];

/** The command named `name` (loaded), or undefined. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return commandLoaders.find((c) => c.name === name)?.load();
}

/** Every command, loaded (the help listing). */
export function loadCommands(): Promise<Command[]> {
  return Promise.all(commandLoaders.map((c) => c.load()));
}
