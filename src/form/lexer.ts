import { AskgraphError, defined } from '../core';

/** Tokens of the logical-form language (grammar/logical-form.ebnf). */
export type Token =
  | { type: '(' | ')' | 'eof'; pos: number }
  | { type: 'label'; text: string; pos: number } // [12] already unescaped and trimmed
  | { type: 'iri'; text: string; pos: number } // [20] without the angle brackets
  | { type: 'string'; text: string; lang?: string; datatype?: string; pos: number } // [16]
  | { type: 'atom'; text: string; pos: number } // names, ids, numbers, dates, typed lexicals
  | { type: '@'; pos: number }; // [18] class marker before an IRI or a label

const DELIMITERS = new Set(['(', ')', '[', ']', '<', '>', '"']);

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}

/** Line, column (1-based) and a caret excerpt for a character offset. */
export function locate(text: string, pos: number): { line: number; column: number; excerpt: string } {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  let lineEnd = text.indexOf('\n', pos);
  if (lineEnd < 0) lineEnd = text.length;
  const column = pos - lineStart + 1;
  let src = text.slice(lineStart, lineEnd);
  let caretAt = column - 1;
  if (src.length > 120) {
    const from = Math.max(0, caretAt - 60);
    src = (from > 0 ? '…' : '') + src.slice(from, from + 120);
    caretAt = caretAt - from + (from > 0 ? 1 : 0);
  }
  return { line, column, excerpt: `${src}\n${' '.repeat(caretAt)}^` };
}

export function syntaxError(text: string, pos: number, production: string, message: string): AskgraphError {
  const { line, column, excerpt } = locate(text, pos);
  return new AskgraphError('FORM_SYNTAX', `line ${line}, column ${column}: ${message} (production ${production})\n${excerpt}`, {
    details: { line, column, production, excerpt },
  });
}

const MAX_FORM_LENGTH = 100_000;

export function tokenize(text: string): Token[] {
  if (text.length > MAX_FORM_LENGTH) {
    throw new AskgraphError('INPUT_TOO_LARGE', `a logical form may have at most ${MAX_FORM_LENGTH} characters (got ${text.length})`);
  }
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '(' || c === ')') {
      tokens.push({ type: c, pos: i });
      i++;
    } else if (c === '@' && (text[i + 1] === '<' || text[i + 1] === '[')) {
      tokens.push({ type: '@', pos: i });
      i++;
    } else if (c === '[') {
      // [12] Label: up to the first unescaped ']'
      let out = '';
      i++;
      for (;;) {
        if (i >= n) throw syntaxError(text, start, '[12] Label', "unclosed label: expected ']'");
        const d = text.charAt(i);
        if (d === '\\' && i + 1 < n && (text[i + 1] === ']' || text[i + 1] === '\\')) {
          out += text.charAt(i + 1);
          i += 2;
        } else if (d === ']') {
          i++;
          break;
        } else {
          out += d;
          i++;
        }
      }
      const label = out.trim();
      if (label === '') throw syntaxError(text, start, '[12] Label', 'empty label');
      tokens.push({ type: 'label', text: label, pos: start });
    } else if (c === ']') {
      throw syntaxError(text, i, '[12] Label', "unexpected ']' without '['");
    } else if (c === '<') {
      const end = text.indexOf('>', i + 1);
      if (end < 0) throw syntaxError(text, start, '[20] Iri', "unclosed IRI: expected '>'");
      const iri = text.slice(i + 1, end);
      if (/[\s<"{}|^`\\]/.test(iri)) throw syntaxError(text, start, '[20] Iri', 'invalid character in IRI');
      tokens.push({ type: 'iri', text: iri, pos: start });
      i = end + 1;
    } else if (c === '>') {
      throw syntaxError(text, i, '[20] Iri', "unexpected '>'");
    } else if (c === '"') {
      // [16] String with escapes
      let out = '';
      i++;
      for (;;) {
        if (i >= n) throw syntaxError(text, start, '[16] String', 'unclosed string: expected \'"\'');
        const d = text.charAt(i);
        if (d === '\\') {
          const e = text[i + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', "'": "'" };
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          const escaped = e === undefined ? undefined : map[e];
          if (escaped === undefined) throw syntaxError(text, i, '[16] String', 'invalid escape in string');
          out += escaped;
          i += 2;
        } else if (d === '"') {
          i++;
          break;
        } else {
          out += d;
          i++;
        }
      }
      const tok: Token = { type: 'string', text: out, pos: start };
      if (text[i] === '@') {
        const m = /^@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)/.exec(text.slice(i));
        if (!m) throw syntaxError(text, i, '[16] String', 'invalid language tag');
        tok.lang = defined(m[1], 'language tag group').toLowerCase();
        i += m[0].length;
      } else if (text.startsWith('^^', i)) {
        i += 2;
        if (text[i] === '<') {
          const end = text.indexOf('>', i + 1);
          if (end < 0) throw syntaxError(text, i, '[16] String', "unclosed datatype IRI: expected '>'");
          tok.datatype = text.slice(i + 1, end);
          i = end + 1;
        } else {
          let j = i;
          while (j < n && !isSpace(text.charAt(j)) && !DELIMITERS.has(text.charAt(j))) j++;
          if (j === i) throw syntaxError(text, i, '[16] String', 'expected a datatype after ^^');
          tok.datatype = text.slice(i, j);
          i = j;
        }
      }
      tokens.push(tok);
    } else {
      let j = i;
      while (j < n && !isSpace(text.charAt(j)) && !DELIMITERS.has(text.charAt(j))) j++;
      tokens.push({ type: 'atom', text: text.slice(i, j), pos: start });
      i = j;
    }
  }
  tokens.push({ type: 'eof', pos: n });
  return tokens;
}
