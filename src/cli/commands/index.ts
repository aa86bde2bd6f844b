/** Every `gpusim` subcommand, in the order `gpusim --help` lists them. */
import type { Command } from '../command.js';

export const commands: Command[] = [];
