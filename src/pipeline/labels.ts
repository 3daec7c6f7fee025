import type { Form } from '../core';
import { containsTexts, entityRefs } from '../form';

/** The label texts of a form's bracketed entities. */
export function entityRefsOf(form: Form): string[] {
  return entityRefs(form).flatMap((r) => (r.kind === 'label' ? [r.label] : []));
}

/**
 * Every text of a form copied from the question: its entity labels, then its CONTAINS texts ([38]) — what the
 * question-word checks count as the form's mentions. A CONTAINS text is never grounded: it explains its own words.
 */
export function copiedTextsOf(form: Form): string[] {
  return [...entityRefsOf(form), ...containsTexts(form)];
}
