import { Column, Form, Literal, Ref, Relation, CompareOp, RDF_LANG_STRING, XSD, itemAt } from '../core';
import { Token, tokenize, syntaxError } from './lexer';

/**
 * Recursive-descent parser of grammar/logical-form.ebnf. Each function names the production it
 * implements; errors carry line, column, a caret excerpt and that production.
 */
const COMPARE_OPS: Record<string, CompareOp> = { GT: 'GT', GE: 'GE', LT: 'LT', LE: 'LE', gt: 'GT', ge: 'GE', lt: 'LT', le: 'LE' };
/** Every operator after "(" in form position ([2] Expression), in grammar order. */
export const OPERATOR_NAMES = ['JOIN', 'AND', 'COUNT', 'ARGMAX', 'ARGMIN', 'GT', 'GE', 'LT', 'LE', 'TC', 'ASK', 'DIFF', 'OR', 'AVG', 'SUM', 'MAX', 'MIN', 'RATIO', 'PERCENT', 'MOSTCOMMON', 'LEASTCOMMON', 'ARGMAXCOUNT', 'ARGMINCOUNT', 'HAS', 'ABSDIFF', 'TABLE', 'GROUPCOUNT', 'GROUPSUM', 'GROUPAVG', 'GROUPMAX', 'GROUPMIN', 'HAVING', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'MORE', 'LESS', 'CONTAINS'] as const;
const ENTITY_ID = /^[mg]\.[0-9a-zA-Z_]+$/; // [19]
const NAME = /^[A-Za-z_][A-Za-z0-9_.:\-/#%]*$/; // [21]
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/; // [14]
const DATE = /^\d{4}-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?$/; // [15]

const XSD_PREFIXES: Record<string, string> = { 'xsd:': XSD, 'xs:': XSD };

function expandDatatype(dt: string): string {
  for (const [prefix, ns] of Object.entries(XSD_PREFIXES)) if (dt.startsWith(prefix)) return ns + dt.slice(prefix.length);
  return dt;
}

/** The datatype a bare lexical form ([14] / [15]) gets. */
export function plainLiteralType(lexical: string): string | null {
  if (NUMBER.test(lexical)) {
    if (/[eE]/.test(lexical)) return XSD + 'double';
    return XSD + (lexical.includes('.') ? 'decimal' : 'integer');
  }
  if (DATE.test(lexical)) {
    if (lexical.includes('T')) return XSD + 'dateTime';
    return XSD + (lexical.length === 7 ? 'gYearMonth' : 'date');
  }
  return null;
}

const MAX_DEPTH = 200;

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  private peek(offset = 0): Token {
    return itemAt(this.tokens, Math.min(this.i + offset, this.tokens.length - 1), 'form tokens');
  }

  private next(): Token {
    return itemAt(this.tokens, this.i++, 'form tokens');
  }

  private fail(tok: Token, production: string, message: string): never {
    throw syntaxError(this.text, tok.pos, production, message);
  }

  private describe(tok: Token): string {
    switch (tok.type) {
      case 'eof':
        return 'end of input';
      case 'label':
        return `label [ ${tok.text} ]`;
      case 'iri':
        return `<${tok.text}>`;
      case 'string':
        return `string "${tok.text}"`;
      case 'atom':
        return `'${tok.text}'`;
      default:
        return `'${tok.type}'`;
    }
  }

  private expect(type: '(' | ')', production: string): void {
    const tok = this.next();
    if (tok.type !== type) this.fail(tok, production, `expected '${type}' but found ${this.describe(tok)}`);
  }

  expectEnd(production: string): void {
    const tok = this.peek();
    if (tok.type !== 'eof') this.fail(tok, production, `expected end of input, found ${this.describe(tok)}`);
  }

  parseTop(): Form {
    const form = this.form();
    const tok = this.peek();
    if (tok.type !== 'eof') this.fail(tok, '[1] Form', `expected end of input after a complete form, found ${this.describe(tok)}`);
    return form;
  }

  /** [1] Form ::= Entity | Literal | Class | "(" Expression ")" */
  form(): Form {
    const tok = this.next();
    switch (tok.type) {
      case 'label':
        return { kind: 'entity', ref: { kind: 'label', label: tok.text } };
      case 'iri':
        return { kind: 'entity', ref: { kind: 'iri', iri: tok.text } };
      case 'string':
        return this.stringLiteral(tok);
      case 'atom': {
        const lit = this.atomLiteral(tok);
        if (lit) return lit;
        // A bare atom is never an operator (operators follow '('), so even `ge` or `R` can name a class.
        if (ENTITY_ID.test(tok.text)) return { kind: 'entity', ref: { kind: 'name', name: tok.text } }; // [11]
        if (NAME.test(tok.text)) return { kind: 'class', ref: { kind: 'name', name: tok.text } }; // [18]
        return this.fail(tok, '[1] Form', `'${tok.text}' is not an entity, literal or class name`);
      }
      case '(':
        return this.expression(tok);
      case '@': {
        // [18] Class ::= "@" Iri | "@" Label
        const c = this.next();
        if (c.type === 'iri') return { kind: 'class', ref: { kind: 'iri', iri: c.text } };
        if (c.type === 'label') return { kind: 'class', ref: { kind: 'label', label: c.text } };
        return this.fail(c, '[18] Class', `expected an IRI or a label after '@' but found ${this.describe(c)}`);
      }
      default:
        return this.fail(tok, '[1] Form', `expected a form but found ${this.describe(tok)}`);
    }
  }

  /** [2] Expression (after "(") */
  private expression(open: Token): Form {
    if (++this.depth > MAX_DEPTH) this.fail(open, '[2] Expression', `forms may nest at most ${MAX_DEPTH} levels deep`);
    const op = this.next();
    if (op.type !== 'atom') this.fail(op, '[2] Expression', `expected an operator after '(' but found ${this.describe(op)}`);
    let form: Form;
    switch (op.text) {
      case 'JOIN': // [3]
        form = { kind: 'join', relation: this.relation('[3] Join'), arg: this.form() };
        break;
      case 'AND': // [4]
        form = { kind: 'and', args: [this.form(), this.form()] };
        break;
      case 'COUNT': // [5]
        form = { kind: 'count', arg: this.form() };
        break;
      case 'ARGMAX':
      case 'ARGMIN': // [6]
        form = { kind: 'arg', op: op.text, arg: this.form(), relation: this.relation('[6] Arg') };
        break;
      case 'TC': // [9]
        form = { kind: 'tc', arg: this.form(), relation: this.relation('[9] TimeCons'), value: this.literal('[9] TimeCons') };
        break;
      case 'ASK': // [22]
        form = { kind: 'ask', arg: this.form() };
        break;
      case 'DIFF': // [23]
        form = { kind: 'diff', args: [this.form(), this.form()] };
        break;
      case 'OR': // [24]
        form = { kind: 'or', args: [this.form(), this.form()] };
        break;
      case 'AVG':
      case 'SUM':
      case 'MAX':
      case 'MIN': // [25]
        form = { kind: 'aggregate', op: op.text, arg: this.form() };
        break;
      case 'RATIO':
      case 'PERCENT': // [26]
        form = { kind: 'ratio', op: op.text, args: [this.form(), this.form()] };
        break;
      case 'MOSTCOMMON':
      case 'LEASTCOMMON': // [27]
        form = { kind: 'common', op: op.text, arg: this.form(), relation: this.relation('[27] Common') };
        break;
      case 'ARGMAXCOUNT':
      case 'ARGMINCOUNT': // [28]
        form = { kind: 'argcount', op: op.text, arg: this.form(), relation: this.relation('[28] ArgCount') };
        break;
      case 'HAS': // [29]
        form = { kind: 'has', relation: this.relation('[29] Has') };
        break;
      case 'ABSDIFF': // [30]
        form = { kind: 'arith', op: op.text, args: [this.form(), this.form()] };
        break;
      case 'TABLE': {
        // [31] Table ::= "TABLE" Form Column+
        const arg = this.form();
        const columns: Column[] = [this.column()];
        while (this.peek().type !== ')' && this.peek().type !== 'eof') columns.push(this.column());
        form = { kind: 'table', arg, columns };
        break;
      }
      case 'GROUPCOUNT': // [32]
        form = { kind: 'group', op: op.text, arg: this.form(), by: this.relation('[32] Group') };
        break;
      case 'GROUPSUM':
      case 'GROUPAVG':
      case 'GROUPMAX':
      case 'GROUPMIN': // [32]
        form = { kind: 'group', op: op.text, arg: this.form(), by: this.relation('[32] Group'), value: this.relation('[32] Group') };
        break;
      case 'HAVING': {
        // [33] Having ::= "HAVING" Form CompareOp Literal
        const arg = this.form();
        const cmpTok = this.next();
        const cmp = cmpTok.type === 'atom' ? COMPARE_OPS[cmpTok.text] : undefined;
        if (!cmp) this.fail(cmpTok, '[33] Having', `expected GT, GE, LT or LE but found ${this.describe(cmpTok)}`);
        form = { kind: 'having', arg, op: cmp, value: this.literal('[33] Having') };
        break;
      }
      case 'ASC':
      case 'DESC': {
        // [34] Order ::= ("ASC" | "DESC") Form Relation?
        const arg = this.form();
        form = this.peek().type === ')' ? { kind: 'order', op: op.text, arg } : { kind: 'order', op: op.text, arg, relation: this.relation('[34] Order') };
        break;
      }
      case 'LIMIT':
      case 'OFFSET': {
        // [35] Slice ::= ("LIMIT" | "OFFSET") Integer Form
        const nTok = this.next();
        if (nTok.type !== 'atom' || !/^\d+$/.test(nTok.text) || Number(nTok.text) > 1_000_000) {
          this.fail(nTok, '[35] Slice', `expected a row count (0 to 1000000) after ${op.text} but found ${this.describe(nTok)}`);
        }
        form = { kind: 'slice', op: op.text, n: Number(nTok.text), arg: this.form() };
        break;
      }
      case 'MORE':
      case 'LESS': // [37]
        form = { kind: 'more', op: op.text, args: [this.form(), this.form()] };
        break;
      case 'CONTAINS': {
        // [38] Contains ::= "CONTAINS" Relation? Span — the text is the last token, a bracketed span of the question
        // (a Relation may itself be a Label, so a label followed by ')' is the text)
        const textNext = (this.peek().type === 'label' && this.peek(1).type === ')') || this.peek().type === 'string';
        const relation = textNext ? undefined : this.relation('[38] Contains');
        const span = this.next();
        if (span.type !== 'label') {
          const hint = span.type === 'string' ? `: write (CONTAINS ${relation ? '… ' : ''}[ ${span.text.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')} ])` : '';
          this.fail(span, '[38] Contains', `CONTAINS takes its text as a bracketed span of the question, found ${this.describe(span)}${hint}`);
        }
        form = relation ? { kind: 'contains', relation, text: span.text } : { kind: 'contains', text: span.text };
        break;
      }
      default: {
        const cmp = COMPARE_OPS[op.text];
        if (!cmp) {
          const hint = op.text === 'R' ? ' (R reverses a relation and cannot stand where a form is expected)' : '';
          this.fail(op, '[2] Expression', `unknown operator '${op.text}'${hint}; expected one of ${OPERATOR_NAMES.join(', ')}`);
        }
        const relation = this.relation('[7] Compare');
        // [36] AttrCompare ::= CompareOp Relation Relation — a second relation where [7] has its literal
        form = this.startsLiteral() ? { kind: 'compare', op: cmp, relation, value: this.literal('[7] Compare') } : { kind: 'attrcompare', op: cmp, relation, other: this.relation('[36] AttrCompare') };
      }
    }
    const close = this.peek();
    if (close.type !== ')') this.fail(close, productionOf(op.text), `expected ')' to close the ${op.text} opened at offset ${open.pos}, found ${this.describe(close)}`);
    this.next();
    this.depth--;
    return form;
  }

  /** Does the next token start a literal ([13])? */
  private startsLiteral(): boolean {
    const tok = this.peek();
    return tok.type === 'string' || (tok.type === 'atom' && (tok.text.includes('^^') || plainLiteralType(tok.text) !== null));
  }

  /** [31] Column ::= Relation | "(" "MINUS" Relation Relation ")" */
  private column(): Column {
    if (this.peek().type === '(' && this.peek(1).type === 'atom' && (this.peek(1) as { text: string }).text === 'MINUS') {
      this.next();
      this.next();
      const col: Column = { kind: 'minus', args: [this.relation('[31] Column'), this.relation('[31] Column')] };
      this.expect(')', '[31] Column');
      return col;
    }
    return this.relation('[31] Table');
  }

  /** [10] Relation ::= Name | Label | Iri | "(" "R" Relation ")" | "(" "JOIN" Relation Relation ")" */
  relation(context: string): Relation {
    const tok = this.next();
    switch (tok.type) {
      case 'atom':
        if (!NAME.test(tok.text) || ENTITY_ID.test(tok.text)) {
          this.fail(tok, '[10] Relation', `expected a relation (in ${context}) but found ${this.describe(tok)}`);
        }
        return { kind: 'rel', ref: { kind: 'name', name: tok.text } };
      case 'label':
        return { kind: 'rel', ref: { kind: 'label', label: tok.text } };
      case 'iri':
        return { kind: 'rel', ref: { kind: 'iri', iri: tok.text } };
      case '(': {
        const op = this.next();
        let rel: Relation;
        if (op.type === 'atom' && op.text === 'R') rel = { kind: 'reverse', of: this.relation('(R …)') };
        else if (op.type === 'atom' && op.text === 'JOIN') rel = { kind: 'chain', first: this.relation('a relation path'), then: this.relation('a relation path') };
        else return this.fail(op, '[10] Relation', `expected R or JOIN in a relation (in ${context}) but found ${this.describe(op)}`);
        this.expect(')', '[10] Relation');
        return rel;
      }
      default:
        return this.fail(tok, '[10] Relation', `expected a relation (in ${context}) but found ${this.describe(tok)}`);
    }
  }

  /** [13] Literal */
  private literal(context: string): Literal {
    const tok = this.next();
    if (tok.type === 'string') return this.stringLiteral(tok);
    if (tok.type === 'atom') {
      const lit = this.atomLiteral(tok);
      if (lit) return lit;
    }
    return this.fail(tok, '[13] Literal', `expected a literal (in ${context}) but found ${this.describe(tok)}`);
  }

  private stringLiteral(tok: Extract<Token, { type: 'string' }>): Literal {
    if (tok.lang) return { kind: 'literal', value: tok.text, datatype: RDF_LANG_STRING, lang: tok.lang };
    return { kind: 'literal', value: tok.text, datatype: tok.datatype ? expandDatatype(tok.datatype) : XSD + 'string' };
  }

  /** [14] Number, [15] Date, [17] Typed — or null when the atom is not a literal. */
  private atomLiteral(tok: Extract<Token, { type: 'atom' }>): Literal | null {
    const text = tok.text;
    const typed = text.indexOf('^^');
    if (typed > 0) {
      const lexical = text.slice(0, typed);
      let datatype = text.slice(typed + 2);
      if (datatype === '') {
        const iri = this.peek();
        if (iri.type !== 'iri' || iri.pos !== tok.pos + text.length) this.fail(tok, '[17] Typed', 'expected a datatype after ^^');
        this.next();
        datatype = iri.text;
      }
      return { kind: 'literal', value: lexical, datatype: expandDatatype(datatype) };
    }
    const type = plainLiteralType(text);
    return type ? { kind: 'literal', value: text, datatype: type } : null;
  }
}

function productionOf(op: string): string {
  switch (op) {
    case 'JOIN':
      return '[3] Join';
    case 'AND':
      return '[4] And';
    case 'COUNT':
      return '[5] Count';
    case 'ARGMAX':
    case 'ARGMIN':
      return '[6] Arg';
    case 'TC':
      return '[9] TimeCons';
    case 'ASK':
      return '[22] Ask';
    case 'DIFF':
      return '[23] Diff';
    case 'OR':
      return '[24] Or';
    case 'AVG':
    case 'SUM':
    case 'MAX':
    case 'MIN':
      return '[25] Aggregate';
    case 'RATIO':
    case 'PERCENT':
      return '[26] Ratio';
    case 'MOSTCOMMON':
    case 'LEASTCOMMON':
      return '[27] Common';
    case 'ARGMAXCOUNT':
    case 'ARGMINCOUNT':
      return '[28] ArgCount';
    case 'HAS':
      return '[29] Has';
    case 'ABSDIFF':
      return '[30] Arith';
    case 'TABLE':
      return '[31] Table';
    case 'GROUPCOUNT':
    case 'GROUPSUM':
    case 'GROUPAVG':
    case 'GROUPMAX':
    case 'GROUPMIN':
      return '[32] Group';
    case 'HAVING':
      return '[33] Having';
    case 'ASC':
    case 'DESC':
      return '[34] Order';
    case 'LIMIT':
    case 'OFFSET':
      return '[35] Slice';
    case 'MORE':
    case 'LESS':
      return '[37] More';
    case 'CONTAINS':
      return '[38] Contains';
    default:
      return '[7] Compare';
  }
}

/** Parses a logical form; throws AskgraphError FORM_SYNTAX (details: line, column, production, excerpt). */
export function parseForm(text: string): Form {
  if (typeof text !== 'string') throw syntaxError(String(text), 0, '[1] Form', 'a logical form must be a string');
  const tokens = tokenize(text);
  return new Parser(text, tokens).parseTop();
}

/** Parses a relation on its own (e.g. `(R directed_by)`). */
export function parseRelation(text: string): Relation {
  const tokens = tokenize(text);
  const p = new Parser(text, tokens);
  const rel = p.relation('a relation');
  p.expectEnd('[10] Relation');
  return rel;
}

export type { Ref };
