/**
 * The operations whose request body the mock does not check, each with why: a schema that does not compile
 * even after schema-dialect.ts's mending (Ajv's reason), a body declared without a schema, or only in media
 * types the mock does not read (multipart, octet-stream, text). Parts of a schema mended or left out (a
 * `$ref` the document does not resolve, a pattern no ECMAScript engine reads) are listed too: the rest is
 * checked. The banner prints the list; the journal notes each request to such an operation
 * (`body_not_validated`).
 */
import type { Operation } from '../../cli/init/operations.ts';
import type { OperationPlan } from './plans.ts';

export interface Unvalidated {
  /** `POST /api/dcim/sites/`. */
  readonly operation: string;
  readonly reason: string;
  /** The body is checked, but without the parts named in `reason`. */
  readonly partly: boolean;
}

export function unvalidatedOperations(
  ops: readonly Operation[],
  plans: ReadonlyMap<Operation, OperationPlan>,
): Unvalidated[] {
  const out: Unvalidated[] = [];
  for (const op of ops) {
    const plan = plans.get(op);
    if (plan === undefined || plan.request.types.length === 0) continue;
    const operation = `${plan.method} ${plan.template}`;
    const { request } = plan;
    const checked = request.checked();
    if (!request.json)
      out.push({
        operation,
        reason: `its body is ${request.types.join(' or ')}, which the mock does not check`,
        partly: false,
      });
    else if (checked === undefined)
      out.push({ operation, reason: 'the document states no schema for its body', partly: false });
    else if (checked.reason !== undefined)
      out.push({
        operation,
        reason: `its body's schema does not compile: ${checked.reason}`,
        partly: false,
      });
    else if (checked.notes.length > 0)
      out.push({ operation, reason: checked.notes.join('; '), partly: true });
  }
  return out;
}
