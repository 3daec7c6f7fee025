import type { Form } from '../core';
import { entityRefs } from '../form';
export {
  filesFingerprint,
  groundCandidates,
  indexCacheFile,
  linkEntities,
  loadOrBuildStoreIndex,
  RelationRetriever,
  type EntityIndex,
  type GroundAttempt,
  type RelationInfo,
  type Scorer,
} from '../ground';

/** The label texts of a form's bracketed entities. */
export function entityRefsOf(form: Form): string[] {
  return entityRefs(form).flatMap((r) => (r.kind === 'label' ? [r.label] : []));
}
