/**
 * Vacuous-join probes: whether a reading's "(JOIN r X)" (X an entity) is empty on its own — X never takes the
 * relation r — so that a count's "0", a yes/no's "no" or a DIFF that takes nothing away is an answer only if
 * nothing better turns up. One ASK per join, at most four per reading.
 */
import type { Executor, Form, PackConfig } from '../core';
import { compileForm, packCompileOptions } from '../compile';
import { runCompiled } from '../execute';
import { children } from '../form';
import { halted, haltOn, traceError, type AttemptRun } from './run';

/** Whether some "(JOIN r X)" of the forms, X an entity, is empty on its own: X never takes the relation r. */
export async function vacuousJoin(executor: Executor, config: PackConfig, forms: Form | Form[], run: AttemptRun): Promise<boolean> {
  for (const j of [forms].flat().flatMap(entityJoins).slice(0, 4)) {
    if (halted(run)) return false;
    const te = performance.now();
    try {
      // (ASK (JOIN r X)): one existence check, not the whole set; one that cannot be finished stops the question
      const out = await runCompiled(executor, compileForm({ kind: 'ask', arg: j }, packCompileOptions(config)), { timeoutMs: Math.min(run.o.queryTimeoutMs, run.left()) });
      if (haltOn(run, out, 'checking a join')) return false;
      if (out.answers[0]?.value === 'false') return true;
    } catch (e) {
      // a join that cannot be checked (it does not compile) counts as not vacuous: the reading stays
      traceError(run, 'execute', e, 'checking a join: the existence check failed; the reading is kept');
      return false;
    } finally {
      run.timings.execute += performance.now() - te;
    }
  }
  return false;
}

/** Every "(JOIN r X)" of a form whose X is an entity, outermost first. */
function entityJoins(form: Form): Form[] {
  return [...(form.kind === 'join' && form.arg.kind === 'entity' ? [form] : []), ...children(form).flatMap(entityJoins)];
}

/** The subtracted sides of a form's DIFFs: a vacuous join there makes the DIFF its first side, unchanged. */
export function subtracted(form: Form): Form[] {
  return [...(form.kind === 'diff' ? [form.args[1]] : []), ...children(form).flatMap(subtracted)];
}
