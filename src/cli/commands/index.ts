/** Every `gpusim` subcommand, in the order `gpusim --help` lists them. */
import type { Command } from '../command.js';
import { asmCommand } from './asm.js';

export const commands: Command[] = [
  asmCommand,
];
