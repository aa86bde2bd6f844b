/**
 * JSON input files (manifests, scenes): a UTF-8 byte-order mark is accepted, and a syntax error is
 * reported as one short line with its line and column (JSON.parse's own messages either give a
 * character position or echo the whole input).
 */
import { InputError } from './errors.js';

/** Where and why `text` is not JSON: the first error a strict scan finds (null when it is JSON). */
export function jsonSyntaxError(text: string): { readonly offset: number; readonly message: string } | null {
  let i = 0;
  const n = text.length;
  class Stop {
    readonly offset: number;
    readonly message: string;
    constructor(offset: number, message: string) {
      this.offset = offset;
      this.message = message;
    }
  }
  const fail = (message: string, at = i): never => {
    throw new Stop(at, message);
  };
  const ws = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const what = (): string => (i >= n ? 'end of input' : `'${text[i] === '\'' ? "\\'" : /[\x20-\x7e]/.test(text[i]!) ? text[i] : `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`}'`);
  const str = (): void => {
    const start = i++;
    for (;;) {
      if (i >= n) fail('unterminated string', start);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in a string (escape it)');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail('bad escape in a string');
      } else i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 512) fail('nested more than 512 deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a "key" in an object, found ${what()}`);
        str();
        ws();
        if (text[i] !== ':') fail(`expected ':' after a key, found ${what()}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('trailing comma before }');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected ',' or '}' in an object, found ${what()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('trailing comma before ]');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected ',' or ']' in an array, found ${what()}`);
      }
    }
    if (c === '"') return str();
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m && m[0] !== '' && m[0] !== '-') {
      i += m[0].length;
      return;
    }
    for (const w of ['true', 'false', 'null']) {
      if (text.startsWith(w, i)) {
        i += w.length;
        return;
      }
    }
    fail(`expected a value, found ${what()}`);
  };
  try {
    value(0);
    ws();
    if (i < n) fail(`unexpected ${what()} after the JSON value`);
    return null;
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, message: e.message };
    throw e;
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text.charCodeAt(k) === 10) {
      line++;
      start = k + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** Parse JSON text (a leading BOM is skipped); a syntax error is an InputError naming line and column. */
export function parseJsonText(text: string, where?: string, what = 'JSON'): unknown {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(t);
  } catch (e) {
    const s = jsonSyntaxError(t);
    if (s === null) throw new InputError(`not valid ${what}: ${String((e as Error).message).slice(0, 120)}`, where);
    const { line, column } = lineColumn(t, s.offset);
    throw new InputError(`line ${line}, column ${column}: not valid ${what}: ${s.message}`, where);
  }
}
