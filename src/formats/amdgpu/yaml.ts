/**
 * The YAML that `.amdgpu_metadata` ... `.end_amdgpu_metadata` holds in LLVM assembly (what clang -S
 * prints for NT_AMDGPU_METADATA): block mappings and sequences, `- key: value` items, flow
 * sequences `[1, 2]`, plain and quoted scalars, comments, `---`/`...`. Enough for code object
 * metadata, not a general YAML parser: anchors, tags, multi-line scalars and flow mappings are
 * errors. Integers stay integers (MessagePack ints), `true`/`false` booleans.
 */
import type { MsgValue } from './metadata.js';

/** A YAML error: `line` is 1-based within the text given to parseYamlSubset. */
export class YamlError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly line: number;
}

function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) { if (c === q) q = null; continue; }
    if (c === '"' || c === "'") q = c;
    else if (c === '#' && (i === 0 || /\s/.test(s[i - 1]!))) return s.slice(0, i);
  }
  return s;
}

/** Parse the YAML subset into a value (a map for metadata). */
export function parseYamlSubset(text: string): MsgValue {
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.includes('\t')) {
      const lead = /^\s*/.exec(raw)![0];
      if (lead.includes('\t')) throw new YamlError(i + 1, 'tabs are not allowed in YAML indentation');
    }
    const s = stripComment(raw).trimEnd();
    const t = s.trim();
    if (t === '' || t === '---' || t === '...') return;
    lines.push({ indent: s.length - s.trimStart().length, text: t, line: i + 1 });
  });
  if (lines.length === 0) return {};
  let i = 0;
  const isItem = (l: Line) => l.text === '-' || l.text.startsWith('- ');

  function block(indent: number): MsgValue {
    const l = lines[i]!;
    return isItem(l) ? seq(l.indent) : map(l.indent);
  }
  function seq(indent: number): MsgValue[] {
    const out: MsgValue[] = [];
    while (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!)) {
      const l = lines[i]!;
      const rest = l.text.slice(1).trimStart();
      if (rest === '') {
        i++;
        if (i < lines.length && lines[i]!.indent > indent) out.push(block(lines[i]!.indent));
        else out.push(null);
      } else if (keyOf(rest) !== null) {
        // `- key: value`: a mapping whose keys sit where `key` starts.
        lines[i] = { indent: indent + (l.text.length - rest.length), text: rest, line: l.line };
        out.push(map(lines[i]!.indent));
      } else {
        out.push(scalar(rest, l.line));
        i++;
      }
    }
    return out;
  }
  function map(indent: number): { [k: string]: MsgValue } {
    const out: { [k: string]: MsgValue } = {};
    while (i < lines.length && lines[i]!.indent === indent && !isItem(lines[i]!)) {
      const l = lines[i]!;
      const kv = keyOf(l.text);
      if (kv === null) throw new YamlError(l.line, `expected 'key: value', got '${l.text}'`);
      const [k, v] = kv;
      if (k in out) throw new YamlError(l.line, `duplicate key '${k}'`);
      i++;
      if (v !== '') out[k] = scalar(v, l.line);
      else if (i < lines.length && (lines[i]!.indent > indent || (lines[i]!.indent === indent && isItem(lines[i]!)))) out[k] = block(lines[i]!.indent);
      else out[k] = null;
    }
    if (i < lines.length && lines[i]!.indent > indent) throw new YamlError(lines[i]!.line, 'unexpected indentation');
    return out;
  }
  const v = block(lines[0]!.indent);
  if (i < lines.length) throw new YamlError(lines[i]!.line, 'unexpected indentation');
  return v;
}

/** `key: value` (or `key:`) -> [key, value text], else null. */
function keyOf(t: string): [string, string] | null {
  let m = /^"((?:[^"\\]|\\.)*)"\s*:(?:\s+(.*))?$/.exec(t) ?? /^'((?:[^']|'')*)'\s*:(?:\s+(.*))?$/.exec(t);
  if (m) return [m[1]!, (m[2] ?? '').trim()];
  m = /^([^\s"'[{][^:]*?)\s*:(?:\s+(.*))?$/.exec(t);
  if (m) return [m[1]!, (m[2] ?? '').trim()];
  return null;
}

function scalar(t: string, line: number): MsgValue {
  if (t.startsWith('[')) {
    if (!t.endsWith(']')) throw new YamlError(line, `unterminated flow sequence '${t}'`);
    const body = t.slice(1, -1).trim();
    return body === '' ? [] : body.split(',').map((x) => scalar(x.trim(), line));
  }
  if (t.startsWith('{') || t.startsWith('&') || t.startsWith('*') || t.startsWith('!') || t === '|' || t === '>') {
    throw new YamlError(line, `unsupported YAML '${t}' (flow mappings, anchors, tags and block scalars are not taken)`);
  }
  if (t.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(t)) throw new YamlError(line, `bad quoted string ${t}`);
    return JSON.parse(t) as string;
  }
  if (t.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(t)) throw new YamlError(line, `bad quoted string ${t}`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[-+]?[0-9]+$/.test(t)) return Number(t);
  if (/^0x[0-9a-f]+$/i.test(t)) return Number(t);
  if (/^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/.test(t)) return Number(t);
  if (t === 'true' || t === 'True' || t === 'TRUE') return true;
  if (t === 'false' || t === 'False' || t === 'FALSE') return false;
  if (t === 'null' || t === '~' || t === 'Null' || t === 'NULL') return null;
  return t;
}
