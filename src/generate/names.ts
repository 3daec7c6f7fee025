/**
 * Open-name models (askgraph-base, issue 20; config.json `"names": "open"`): a relation, class or literal is
 * written as sentencepiece pieces of its words followed by the symbol `nameEnd` (`</n>`), not as one symbol of
 * one graph's closed list. These are the rules that turn a name into its words and decoded words back into a form
 * token — train/askgraph_data.py `open_text` / `open_token` are the same rules on the trainer's side.
 */
import { identifierWords } from '../core';
import { OPERATOR_NAMES } from '../form';

/** A number or a date: what an open-name model writes in a literal slot (train/askgraph_data.py `is_literal_token`). */
const OPEN_LITERAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$|^\d{4}-\d{2}(-\d{2})?$/;
/** A quoted literal with a datatype or language (`"1.0"^^xsd:float`): its value may be a number or a date. */
const TYPED = /^"((?:[^"\\]|\\.)*)"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^(?:<[^>\s]*>|[^\s()[\]]+))?$/;

export function isOpenLiteral(text: string): boolean {
  return OPEN_LITERAL.test(text);
}

/**
 * Can more characters make this (trimmed) text a number or a date? ("-", "12.", "1e", "2010-0" can; "1 2",
 * "12a" cannot.) The grammar automaton offers a piece in a literal slot only while this holds.
 */
export function isOpenLiteralPrefix(text: string): boolean {
  return /^-?$|^-?\d+(\.\d*)?$|^-?\d+(\.\d+)?[eE][+-]?\d*$/.test(text) || /^\d{4}-\d{0,2}$|^\d{4}-\d{2}-\d{0,2}$/.test(text);
}

/**
 * The words an open-name model writes for a form token (train/askgraph_data.py `open_text`): a relation or class
 * name's identifier words ("place_of_birth", "placeOfBirth" → "place of birth"), a number or date as written, a
 * typed literal's value when it is a number or date; undefined for what such a model cannot write (a string, a
 * digit-first name such as a dateTime value, a non-ASCII name).
 */
export function openNameText(token: string): string | undefined {
  if (isOpenLiteral(token)) return token;
  const typed = TYPED.exec(token);
  if (typed) return typed[1] !== undefined && isOpenLiteral(typed[1]) ? typed[1] : undefined;
  const ws = identifierWords(token);
  // a form name is ASCII with a letter first: the decoder writes no other (the trainer skips such names too)
  const first = ws[0];
  if (first === undefined || !/^[a-z]/i.test(first) || !ws.every((w) => /^[\x20-\x7e]+$/.test(w))) return undefined;
  return ws.join(' ');
}

/** The form token of decoded name words (train/askgraph_data.py `open_token`): a number or date stays, words join with `_`. */
export function openNameToken(text: string): string {
  const t = text.split(/\s+/).filter(Boolean).join(' ');
  return isOpenLiteral(t) ? t : identifierWords(t).join('_');
}

/** A node of a trie of names' piece sequences (the graph-name restriction of open-name models). */
export interface NameTrieNode {
  readonly next: ReadonlyMap<number, NameTrieNode>;
  /** A whole name ends here (`nameEnd` may follow). */
  readonly end: boolean;
  /** Fewest tokens from here to a finished name, `nameEnd` included. */
  readonly need: number;
}

/** The trie of piece-id sequences (empty sequences are ignored); its root's need is Infinity when it holds none. */
export function nameTrie(sequences: Iterable<readonly number[]>): NameTrieNode {
  interface Mutable {
    next: Map<number, Mutable>;
    end: boolean;
    need: number;
  }
  const root: Mutable = { next: new Map(), end: false, need: Infinity };
  for (const seq of sequences) {
    if (seq.length === 0) continue;
    let node = root;
    for (const id of seq) {
      let child = node.next.get(id);
      if (!child) node.next.set(id, (child = { next: new Map(), end: false, need: Infinity }));
      node = child;
    }
    node.end = true;
  }
  const fill = (n: Mutable): number => {
    let best = n.end ? 1 : Infinity;
    for (const c of n.next.values()) best = Math.min(best, 1 + fill(c));
    n.need = best;
    return best;
  };
  fill(root);
  return root;
}

/** The form tokenizer of train/askgraph_data.py (`_FORM_TOKEN`): an entity span, a bracket, a quoted literal, a bare token. */
const FORM_TOKEN = /\[ (.*?) \]|\(|\)|"(?:[^"\\]|\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^(?:<[^>\s]*>|[^\s()[\]]+))?|[^\s()[\]]+/g;
const FORM_OPERATORS = new Set<string>([...OPERATOR_NAMES, 'R', 'MINUS']);

/**
 * A form as an open-name model writes it back (train/askgraph_data.py `canonical(form, open_names=True)`): each
 * relation, class or literal token through openNameText then openNameToken (`birthPlace` → birth_place,
 * `"1.5"^^xsd:float` → 1.5), what it cannot write (a string) kept; entity spans and operators as they are.
 */
export function openNameForm(text: string): string {
  const toks: string[] = [];
  for (const m of text.matchAll(FORM_TOKEN)) {
    const t = m[0];
    if (m[1] !== undefined || t === '(' || t === ')' || FORM_OPERATORS.has(t)) toks.push(m[1] !== undefined ? `[ ${m[1]} ]` : t);
    else {
      const words = openNameText(t);
      toks.push(words === undefined ? t : openNameToken(words));
    }
  }
  return toks.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}
