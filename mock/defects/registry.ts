/**
 * The defect registry: the one list of the mock's defect modes — named, realistic bugs it can be switched
 * into (docs/defects.md). Each is declared in its own file (mock/defects/<layer>/<name>.ts, see
 * mock/defects/define.ts); adding a defect is that file and one line here. The order is the order in which
 * the defects' hooks apply when several are on, and the order of `--list-defects` and docs/defects.md.
 *
 * The mock knows nothing of the suite's rules: which rules each defect must fail, and its probe, are in
 * tests/mutation/expectations/. Names are stable kebab-case: scripts, tests and `npm run mock -- --defect
 * <name>` use them; fixtures/schemas/mock-config.schema.json lists them (a test checks it).
 */

import blockListsIgnored from './access-control/block-lists-ignored.ts';
import cidrPrefixOneDigit from './access-control/cidr-prefix-one-digit.ts';
import closedRouteOpen from './access-control/closed-route-open.ts';
import adminOpenToUsers from './authorization/admin-open-to-users.ts';
import apikeySkipsAuthorization from './authorization/apikey-skips-authorization.ts';
import forbiddenAs401 from './authorization/forbidden-as-401.ts';
import headUnauthenticated from './authorization/head-unauthenticated.ts';
import jwtCacheSkipsAuthorization from './authorization/jwt-cache-skips-authorization.ts';
import missingCredentials403 from './authorization/missing-credentials-403.ts';
import publicRequiresAuth from './authorization/public-requires-auth.ts';
import queryTokenDecoded from './authorization/query-token-decoded.ts';
import refusalCarriesResource from './authorization/refusal-carries-resource.ts';
import storeBeforeAuth from './authorization/store-before-auth.ts';
import algNone from './bearer-tokens/alg-none.ts';
import bearerFailOpen from './bearer-tokens/bearer-fail-open.ts';
import ecdsaZeroSignature from './bearer-tokens/ecdsa-zero-signature.ts';
import jwtAcceptExpired from './bearer-tokens/jwt-accept-expired.ts';
import jwtEmbeddedKey from './bearer-tokens/jwt-embedded-key.ts';
import jwtExpCoerced from './bearer-tokens/jwt-exp-coerced.ts';
import jwtExpMilliseconds from './bearer-tokens/jwt-exp-milliseconds.ts';
import jwtHeaderNotObject500 from './bearer-tokens/jwt-header-not-object-500.ts';
import jwtIgnoreAud from './bearer-tokens/jwt-ignore-aud.ts';
import jwtIgnoreCrit from './bearer-tokens/jwt-ignore-crit.ts';
import jwtIgnoreIss from './bearer-tokens/jwt-ignore-iss.ts';
import jwtIgnoreNbf from './bearer-tokens/jwt-ignore-nbf.ts';
import jwtIssAudOptional from './bearer-tokens/jwt-iss-aud-optional.ts';
import jwtKeyConfusion from './bearer-tokens/jwt-key-confusion.ts';
import jwtKidEmptySecret from './bearer-tokens/jwt-kid-empty-secret.ts';
import jwtKidFilePath from './bearer-tokens/jwt-kid-file-path.ts';
import jwtLenientStructure from './bearer-tokens/jwt-lenient-structure.ts';
import jwtRolesIgnored from './bearer-tokens/jwt-roles-ignored.ts';
import jwtSignatureLenientBase64url from './bearer-tokens/jwt-signature-lenient-base64url.ts';
import jwtSkipSignature from './bearer-tokens/jwt-skip-signature.ts';
import basicChallengeBare from './challenges/basic-challenge-bare.ts';
import basicChallengeBareOnFailure from './challenges/basic-challenge-bare-on-failure.ts';
import basicCharsetLatin1 from './challenges/basic-charset-latin1.ts';
import bearerErrorOnMissing from './challenges/bearer-error-on-missing.ts';
import bearerErrorWrongStatus from './challenges/bearer-error-wrong-status.ts';
import bearerNoErrorCode from './challenges/bearer-no-error-code.ts';
import insufficientScopeNoChallenge from './challenges/insufficient-scope-no-challenge.ts';
import noWwwAuthenticate from './challenges/no-www-authenticate.ts';
import realmUnquoted from './challenges/realm-unquoted.ts';
import singleChallenge from './challenges/single-challenge.ts';
import apikeyAcceptsPrefix from './credentials/apikey-accepts-prefix.ts';
import apikeyAsBearer from './credentials/apikey-as-bearer.ts';
import apikeyCaseInsensitive from './credentials/apikey-case-insensitive.ts';
import apikeyMaskedCompare from './credentials/apikey-masked-compare.ts';
import apikeyOffByOne from './credentials/apikey-off-by-one.ts';
import apikeyPrefix from './credentials/apikey-prefix.ts';
import apikeySanitizedLookup from './credentials/apikey-sanitized-lookup.ts';
import basicAnyPassword from './credentials/basic-any-password.ts';
import basicBadBase64500 from './credentials/basic-bad-base64-500.ts';
import basicEmptyPassword from './credentials/basic-empty-password.ts';
import basicLenientBase64 from './credentials/basic-lenient-base64.ts';
import basicPasswordAnyUser from './credentials/basic-password-any-user.ts';
import basicPasswordColon from './credentials/basic-password-colon.ts';
import basicPasswordFirstLetterCase from './credentials/basic-password-first-letter-case.ts';
import basicToken68LenientBase64 from './credentials/basic-token68-lenient-base64.ts';
import basicTrimsUserPass from './credentials/basic-trims-user-pass.ts';
import basicUserIdLikeWildcard from './credentials/basic-user-id-like-wildcard.ts';
import credentialInDetail from './errors/credential-in-detail.ts';
import errorsAs200 from './errors/errors-as-200.ts';
import problemStatusString from './errors/problem-status-string.ts';
import publicAuthorization500 from './errors/public-authorization-500.ts';
import stackTraceIn500 from './errors/stack-trace-in-500.ts';
import duplicateAuthorizationFirstWins from './header-parsing/duplicate-authorization-first-wins.ts';
import hostFirstWins from './header-parsing/host-first-wins.ts';
import schemeCaseSensitive from './header-parsing/scheme-case-sensitive.ts';
import schemeNotEnforced from './header-parsing/scheme-not-enforced.ts';
import schemePrefixSlice from './header-parsing/scheme-prefix-slice.ts';
import schemeSingleSpace from './header-parsing/scheme-single-space.ts';
import noRateLimit from './rate-limiting/no-rate-limit.ts';
import rateLimitNeverResets from './rate-limiting/rate-limit-never-resets.ts';
import retryAfterIsoDate from './rate-limiting/retry-after-iso-date.ts';
import arrayItem500 from './request-bodies/array-item-500.ts';
import badJson500 from './request-bodies/bad-json-500.ts';
import bodyAnyJsonValue from './request-bodies/body-any-json-value.ts';
import contentTypeIgnored from './request-bodies/content-type-ignored.ts';
import deepJson500 from './request-bodies/deep-json-500.ts';
import oversizedBody500 from './request-bodies/oversized-body-500.ts';
import protoKeyDropped from './request-bodies/proto-key-dropped.ts';
import stackTraceIn400 from './request-bodies/stack-trace-in-400.ts';
import allowListsAllMethods from './routing/allow-lists-all-methods.ts';
import allowOmitsMethod from './routing/allow-omits-method.ts';
import head405 from './routing/head-405.ts';
import itemIdInt32500 from './routing/item-id-int32-500.ts';
import method404 from './routing/method-404.ts';
import methodNoAllow from './routing/method-no-allow.ts';
import trailingSlashBypass from './routing/trailing-slash-bypass.ts';
import unknownId200Null from './routing/unknown-id-200-null.ts';
import unknownMethodServed from './routing/unknown-method-served.ts';
import unknownPath403 from './routing/unknown-path-403.ts';
import unknownPath405 from './routing/unknown-path-405.ts';
import delete204 from './success-statuses/delete-204.ts';
import post201 from './success-statuses/post-201.ts';
import put204 from './success-statuses/put-204.ts';
import writesNoEffect from './success-statuses/writes-no-effect.ts';
import type { Defect } from './unit/define.ts';

export type { DefectLayer, DefectNeed } from './unit/define.ts';

export const DEFECTS = [
  schemeCaseSensitive,
  schemeSingleSpace,
  duplicateAuthorizationFirstWins,
  hostFirstWins,
  schemeNotEnforced,
  schemePrefixSlice,
  basicAnyPassword,
  basicPasswordColon,
  basicBadBase64500,
  basicEmptyPassword,
  basicTrimsUserPass,
  basicPasswordAnyUser,
  apikeyOffByOne,
  basicLenientBase64,
  basicToken68LenientBase64,
  basicUserIdLikeWildcard,
  basicPasswordFirstLetterCase,
  apikeyPrefix,
  apikeyAcceptsPrefix,
  apikeyMaskedCompare,
  apikeyCaseInsensitive,
  apikeyAsBearer,
  apikeySanitizedLookup,
  algNone,
  bearerFailOpen,
  jwtSkipSignature,
  jwtSignatureLenientBase64url,
  jwtKeyConfusion,
  ecdsaZeroSignature,
  jwtKidEmptySecret,
  jwtKidFilePath,
  jwtHeaderNotObject500,
  jwtEmbeddedKey,
  jwtLenientStructure,
  jwtAcceptExpired,
  jwtIgnoreNbf,
  jwtIgnoreAud,
  jwtIgnoreIss,
  jwtIssAudOptional,
  jwtIgnoreCrit,
  jwtExpMilliseconds,
  jwtExpCoerced,
  jwtRolesIgnored,
  publicRequiresAuth,
  missingCredentials403,
  forbiddenAs401,
  adminOpenToUsers,
  apikeySkipsAuthorization,
  jwtCacheSkipsAuthorization,
  headUnauthenticated,
  storeBeforeAuth,
  queryTokenDecoded,
  refusalCarriesResource,
  blockListsIgnored,
  cidrPrefixOneDigit,
  closedRouteOpen,
  noWwwAuthenticate,
  singleChallenge,
  realmUnquoted,
  basicChallengeBare,
  basicChallengeBareOnFailure,
  basicCharsetLatin1,
  bearerErrorOnMissing,
  bearerNoErrorCode,
  bearerErrorWrongStatus,
  insufficientScopeNoChallenge,
  unknownPath403,
  unknownPath405,
  unknownId200Null,
  itemIdInt32500,
  method404,
  methodNoAllow,
  allowListsAllMethods,
  allowOmitsMethod,
  head405,
  unknownMethodServed,
  trailingSlashBypass,
  post201,
  put204,
  writesNoEffect,
  delete204,
  badJson500,
  bodyAnyJsonValue,
  contentTypeIgnored,
  oversizedBody500,
  arrayItem500,
  deepJson500,
  protoKeyDropped,
  stackTraceIn400,
  noRateLimit,
  retryAfterIsoDate,
  rateLimitNeverResets,
  publicAuthorization500,
  problemStatusString,
  errorsAs200,
  stackTraceIn500,
  credentialInDetail,
] as const;

export type DefectName = (typeof DEFECTS)[number]['name'];

/** Every defect, typed as the declarations' common shape. */
export type DefectSpec = Defect<DefectName>;

export const DEFECT_NAMES: readonly DefectName[] = DEFECTS.map((d) => d.name);

/** The entry of a name, or undefined; names are exact (kebab-case, lower case). */
export function defectByName(name: string): DefectSpec | undefined {
  return (DEFECTS as readonly DefectSpec[]).find((d) => d.name === name);
}
