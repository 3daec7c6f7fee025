import { Column, Form, Literal, Ref, Relation, RDF_LANG_STRING, XSD } from '../core';
import { plainLiteralType } from './parser';

/** Canonical text of a form: `(JOIN (R directed_by) [ Forrest Gump ])`. parseForm(printForm(x)) equals x. */
export function printForm(form: Form): string {
  switch (form.kind) {
    case 'entity':
      return printRef(form.ref);
    case 'class':
      return form.ref.kind === 'name' ? form.ref.name : '@' + printRef(form.ref);
    case 'literal':
      return printLiteral(form);
    case 'join':
      return `(JOIN ${printRelation(form.relation)} ${printForm(form.arg)})`;
    case 'and':
      return `(AND ${printForm(form.args[0])} ${printForm(form.args[1])})`;
    case 'count':
      return `(COUNT ${printForm(form.arg)})`;
    case 'arg':
      return `(${form.op} ${printForm(form.arg)} ${printRelation(form.relation)})`;
    case 'compare':
      return `(${form.op} ${printRelation(form.relation)} ${printLiteral(form.value)})`;
    case 'tc':
      return `(TC ${printForm(form.arg)} ${printRelation(form.relation)} ${printLiteral(form.value)})`;
    case 'ask':
      return `(ASK ${printForm(form.arg)})`;
    case 'diff':
      return `(DIFF ${printForm(form.args[0])} ${printForm(form.args[1])})`;
    case 'or':
      return `(OR ${printForm(form.args[0])} ${printForm(form.args[1])})`;
    case 'aggregate':
      return `(${form.op} ${printForm(form.arg)})`;
    case 'ratio':
    case 'arith':
      return `(${form.op} ${printForm(form.args[0])} ${printForm(form.args[1])})`;
    case 'common':
    case 'argcount':
      return `(${form.op} ${printForm(form.arg)} ${printRelation(form.relation)})`;
    case 'has':
      return `(HAS ${printRelation(form.relation)})`;
    case 'table':
      return `(TABLE ${printForm(form.arg)} ${form.columns.map(printColumn).join(' ')})`;
    case 'group':
      return `(${form.op} ${printForm(form.arg)} ${printRelation(form.by)}${form.value ? ' ' + printRelation(form.value) : ''})`;
    case 'having':
      return `(HAVING ${printForm(form.arg)} ${form.op} ${printLiteral(form.value)})`;
    case 'order':
      return `(${form.op} ${printForm(form.arg)}${form.relation ? ' ' + printRelation(form.relation) : ''})`;
    case 'slice':
      return `(${form.op} ${form.n} ${printForm(form.arg)})`;
    case 'attrcompare':
      return `(${form.op} ${printRelation(form.relation)} ${printRelation(form.other)})`;
    case 'more':
      return `(${form.op} ${printForm(form.args[0])} ${printForm(form.args[1])})`;
    case 'contains':
      return `(CONTAINS ${form.relation ? printRelation(form.relation) + ' ' : ''}${printRef({ kind: 'label', label: form.text })})`;
  }
}

/** A TABLE column: a relation, or (MINUS r1 r2). */
export function printColumn(col: Column): string {
  return col.kind === 'minus' ? `(MINUS ${printRelation(col.args[0])} ${printRelation(col.args[1])})` : printRelation(col);
}

export function printRelation(rel: Relation): string {
  switch (rel.kind) {
    case 'rel':
      return printRef(rel.ref);
    case 'reverse':
      return `(R ${printRelation(rel.of)})`;
    case 'chain':
      return `(JOIN ${printRelation(rel.first)} ${printRelation(rel.then)})`;
  }
}

export function printRef(ref: Ref): string {
  switch (ref.kind) {
    case 'name':
      return ref.name;
    case 'iri':
      return `<${ref.iri}>`;
    case 'label':
      return `[ ${ref.label.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')} ]`;
  }
}

function quote(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') + '"';
}

export function printLiteral(lit: Literal): string {
  if (lit.lang !== undefined || lit.datatype === RDF_LANG_STRING) return `${quote(lit.value)}@${lit.lang ?? ''}`;
  if (lit.datatype === XSD + 'string') return quote(lit.value);
  // A bare lexical form when reading it back gives the same datatype.
  if (plainLiteralType(lit.value) === lit.datatype) return lit.value;
  return `${quote(lit.value)}^^<${lit.datatype}>`;
}
