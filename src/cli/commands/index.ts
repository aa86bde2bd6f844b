/** Every `gpusim` subcommand, in the order `gpusim --help` lists them. */
import type { Command } from '../command.js';
import { adrenoCommand } from './adreno.js';
import { amdCommand } from './amd.js';
import { asmCommand } from './asm.js';
import { benchCommand } from './bench.js';
import { demoCommand } from './demo.js';
import { disasmCommand } from './disasm.js';
import { drawCommand } from './draw.js';
import { infoCommand } from './info.js';
import { pm4Command } from './pm4.js';
import { popsCommand } from './pops.js';
import { r600Command } from './r600.js';
import { runCommand } from './run.js';

export const commands: Command[] = [
  demoCommand,
  infoCommand,
  runCommand,
  benchCommand,
  disasmCommand,
  asmCommand,
  amdCommand,
  adrenoCommand,
  pm4Command,
  drawCommand,
  popsCommand,
  r600Command,
];
