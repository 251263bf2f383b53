/**
 * Writes read back (issue #68): a 2xx to a write says the write completed (seed §4 rule 2), so a read of the
 * item after it shows the write's effect. success.200.* (success.ts) look at the write's status alone, and a
 * target that answers every write from the request and commits nothing passes them.
 */
import { rfc, seed } from './refs.ts';
import type { Rule } from './types.ts';

/**
 * MUST: seed §4 rule 2 ("A 200 response is returned when GET, POST, PUT or DELETE completes successfully");
 * RFC 9110 §9.3.4: for a PUT that changed the target resource's state the origin server "MUST send either a 200
 * (OK) or a 204 (No Content)" — a 200 for a state left unchanged misstates; §9.3.5: a DELETE "successfully
 * applied" removes the association, so the item is then 404 (§15.5.5) or 410 (§15.5.11). A 202 (§15.3.3:
 * "processing has not been completed") promises no effect yet and is not judged.
 */
export const writeEffectReadBack: Rule = {
  id: 'write.effect.read-back',
  level: 'MUST',
  requirement:
    'After a 2xx (not 202) to a write, a read of the item with valid credentials shows it: after a create, the members of the sample item as sent; after a replace, the new values; after a delete, 404 or 410.',
  refs: [seed('4', 'rule 2'), rfc(9110, '9.3.4'), rfc(9110, '9.3.5'), rfc(9110, '15.3.3')],
  statuses: [200, 404],
  needs: ['endpoints.collection.sampleItem', 'endpoints.collection.writeSchemes'],
  requires: ['writes'],
  impact: 'status',
  remedy:
    'Answer a write with 2xx only once its effect is stored (commit before answering); a write that is only queued answers 202.',
};

export const writeEffectRules: readonly Rule[] = [writeEffectReadBack];
