/**
 * A small XML reader for the generators: enough for the freedreno rules-ng and isaspec files
 * (elements, attributes, text, comments, processing instructions, CDATA-free). No dependency.
 */

export interface XmlElement {
  readonly tag: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  /** Concatenated text directly inside this element (entities decoded). */
  text: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
}

/** Parse a whole document; returns the root element. Throws on malformed nesting. */
export function parseXml(src: string, file = '<xml>'): XmlElement {
  const root: XmlElement = { tag: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const lt = src.indexOf('<', i);
    if (lt < 0) {
      stack[stack.length - 1]!.text += decodeEntities(src.slice(i));
      break;
    }
    if (lt > i) stack[stack.length - 1]!.text += decodeEntities(src.slice(i, lt));
    if (src.startsWith('<!--', lt)) {
      const e = src.indexOf('-->', lt + 4);
      if (e < 0) throw new Error(`${file}: unterminated comment`);
      i = e + 3;
      continue;
    }
    if (src.startsWith('<?', lt) || src.startsWith('<!', lt)) {
      const e = src.indexOf('>', lt);
      i = e + 1;
      continue;
    }
    const gt = src.indexOf('>', lt);
    if (gt < 0) throw new Error(`${file}: unterminated tag`);
    let body = src.slice(lt + 1, gt);
    if (body.startsWith('/')) {
      const tag = body.slice(1).trim();
      const top = stack.pop();
      if (!top || top.tag !== tag) throw new Error(`${file}: mismatched </${tag}>`);
      i = gt + 1;
      continue;
    }
    const selfClose = body.endsWith('/');
    if (selfClose) body = body.slice(0, -1);
    const m = /^([^\s]+)/.exec(body);
    if (!m) throw new Error(`${file}: empty tag`);
    const el: XmlElement = { tag: m[1]!, attrs: {}, children: [], text: '' };
    const re = /([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
    let a: RegExpExecArray | null;
    while ((a = re.exec(body.slice(m[1]!.length)))) el.attrs[a[1]!] = decodeEntities(a[3] ?? a[4] ?? '');
    stack[stack.length - 1]!.children.push(el);
    if (!selfClose) stack.push(el);
    i = gt + 1;
  }
  if (stack.length !== 1) throw new Error(`${file}: unclosed <${stack[stack.length - 1]!.tag}>`);
  return root;
}
