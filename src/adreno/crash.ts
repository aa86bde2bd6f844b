import { EXIT_ERROR } from '../cli/command.js';
export function crashCommand(_v: Record<string, unknown>, _r: string[], out: (l: string) => void): number {
  out('not implemented yet');
  return EXIT_ERROR;
}
