/**
 * The mutation tests' knowledge of each defect mode, keyed by its name: the rules it must fail and the probe
 * that shows it (one file per layer, beside the mock's mock/defects/<layer>/). The type makes a defect
 * without an entry a compile error.
 */
import type { DefectName } from '../../../mock/defects/registry.ts';
import { ACCESS_CONTROL } from './access-control.ts';
import { AUTHORIZATION } from './authorization.ts';
import { BEARER_TOKENS } from './bearer-tokens.ts';
import { CHALLENGES } from './challenges.ts';
import { CREDENTIALS } from './credentials.ts';
import { ERRORS } from './errors.ts';
import { HEADER_PARSING } from './header-parsing.ts';
import { RATE_LIMITING } from './rate-limiting.ts';
import { REQUEST_BODIES } from './request-bodies.ts';
import { ROUTING } from './routing.ts';
import { SUCCESS_STATUSES } from './success-statuses.ts';
import type { Expectation } from './types.ts';

export type { Expectation, FakeClock } from './types.ts';
export { UNPROVEN } from './unproven.ts';

export const EXPECTATIONS: Readonly<Record<DefectName, Expectation>> = {
  ...HEADER_PARSING,
  ...CREDENTIALS,
  ...BEARER_TOKENS,
  ...AUTHORIZATION,
  ...ACCESS_CONTROL,
  ...CHALLENGES,
  ...ROUTING,
  ...SUCCESS_STATUSES,
  ...REQUEST_BODIES,
  ...RATE_LIMITING,
  ...ERRORS,
};
