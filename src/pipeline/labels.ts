import type { Form } from '../core';
import { entityRefs } from '../form';

/** The label texts of a form's bracketed entities. */
export function entityRefsOf(form: Form): string[] {
  return entityRefs(form).flatMap((r) => (r.kind === 'label' ? [r.label] : []));
}
