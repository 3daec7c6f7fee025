import * as fs from 'node:fs';
import { AskgraphError } from '../../core';
import { parseForm } from '../../form';
import { describeChange, diffForms, diffPredictions, renderDiffTree, type FilesDiff, type FormDiff, type PredictionRow } from '../../form';
import { ExitCode, printJson, writeLine, type CliIO } from '../io';
import type { RegisterCommand } from './index';

type Input = { kind: 'form'; text: string; source: string } | { kind: 'file'; rows: PredictionRow[]; source: string };

/** A form given inline or in a file, or a prediction file (JSON Lines with id and form). */
function readInput(arg: string): Input {
  let text = arg;
  let isFile = false;
  try {
    isFile = fs.statSync(arg).isFile();
  } catch {
    isFile = false;
  }
  if (isFile) text = fs.readFileSync(arg, 'utf8');
  const trimmed = text.trim();
  if (!isFile || !trimmed.startsWith('{')) {
    if (!trimmed) throw new AskgraphError('BAD_REQUEST', `${isFile ? arg : 'argument'}: empty form`);
    return { kind: 'form', text: trimmed, source: arg };
  }
  const rows: PredictionRow[] = [];
  trimmed.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch (e) {
      throw new AskgraphError('DATA_FORMAT', `${arg}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof r !== 'object' || r === null || !('id' in r) || r.id === undefined || r.id === null) {
      throw new AskgraphError('DATA_FORMAT', `${arg}:${i + 1}: each line needs an "id" (and a "form")`);
    }
    const id = r.id;
    // an object or a list is no id (its text would be "[object Object]", the same for every one)
    if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'boolean') throw new AskgraphError('DATA_FORMAT', `${arg}:${i + 1}: "id" must be a string or a number`);
    const form = ('form' in r ? r.form : undefined) ?? ('predicted' in r ? r.predicted : undefined) ?? null;
    if (form !== null && typeof form !== 'string') throw new AskgraphError('DATA_FORMAT', `${arg}:${i + 1}: "form" must be a string or null`);
    rows.push({ id: String(id), form });
  });
  return { kind: 'file', rows, source: arg };
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

function printFormDiff(io: CliIO, d: FormDiff, color: boolean): void {
  writeLine(io.stdout, `equal: ${yesNo(d.equal)}   equal after normalisation: ${yesNo(d.equalNormalized)}   same skeleton: ${yesNo(d.sameSkeleton)}`);
  if (d.equalNormalized) return;
  writeLine(io.stdout, renderDiffTree(d.tree, { color }));
  writeLine(io.stdout, `changes: ${d.changes.length} (${d.counts.added} added, ${d.counts.removed} removed, ${d.counts.substituted} substituted)`);
  for (const c of d.changes) writeLine(io.stdout, '  ' + describeChange(c));
}

function printFilesDiff(io: CliIO, d: FilesDiff): void {
  const t = d.totals;
  writeLine(
    io.stdout,
    `examples: ${t.total}   same: ${t.same}   same skeleton: ${t['same-skeleton']}   different: ${t.different}   only in a: ${t['only-a']}   only in b: ${t['only-b']}`,
  );
  for (const e of d.changed) {
    writeLine(io.stdout, `${e.id}  [${e.status}]`);
    writeLine(io.stdout, `  a: ${e.a ?? '—'}`);
    writeLine(io.stdout, `  b: ${e.b ?? '—'}`);
    for (const c of e.changes ?? []) writeLine(io.stdout, '    ' + describeChange(c));
  }
}

export const register: RegisterCommand = (program, io) => {
  program
    .command('diff')
    .description('compare two logical forms, or two prediction files (JSON Lines with id and form); exit 0 equal, 1 different, 2 bad input')
    .argument('<a>', 'a form, a file holding one form, or a prediction file')
    .argument('<b>', 'a form, a file holding one form, or a prediction file')
    .option('--json', 'print the diff as JSON')
    .action((aArg: string, bArg: string, opts: { json?: boolean }) => {
      const a = readInput(aArg);
      const b = readInput(bArg);
      if (a.kind !== b.kind) {
        throw new AskgraphError('BAD_REQUEST', 'compare two forms or two prediction files, not one of each');
      }
      let equal: boolean;
      if (a.kind === 'form' && b.kind === 'form') {
        const d = diffForms(parseForm(a.text), parseForm(b.text));
        equal = d.equalNormalized;
        if (opts.json) printJson(io, d);
        else printFormDiff(io, d, Boolean((io.stdout as { isTTY?: boolean }).isTTY) && !io.env.NO_COLOR);
      } else if (a.kind === 'file' && b.kind === 'file') {
        const d = diffPredictions(a.rows, b.rows, parseForm);
        equal = d.totals.same === d.totals.total;
        if (opts.json) printJson(io, d);
        else printFilesDiff(io, d);
      } else throw new AskgraphError('INTERNAL', 'unreachable');
      if (!equal) throw new ExitCode(1);
    });
};
