/**
 * Every header arbitrary against the target-side grammar (tests/fuzz/grammar.ts): valid… values must be
 * accepted by it, invalid… values rejected, each over a few hundred samples. The grammar RegExps are checked
 * first on hand-written values, both branches (STYLE.md "assert both the accept and the reject branch").
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { invalidBase64Credentials } from '../../specs/fuzz/arbitraries/invalidBase64Credentials.ts';
import { invalidBasicControlChars } from '../../specs/fuzz/arbitraries/invalidBasicControlChars.ts';
import { invalidBasicNoColon } from '../../specs/fuzz/arbitraries/invalidBasicNoColon.ts';
import { invalidCredentialWhitespace } from '../../specs/fuzz/arbitraries/invalidCredentialWhitespace.ts';
import { invalidDuplicateAuthorization } from '../../specs/fuzz/arbitraries/invalidDuplicateAuthorization.ts';
import { invalidEmptyAuthorization } from '../../specs/fuzz/arbitraries/invalidEmptyAuthorization.ts';
import {
  invalidOverlongCredentials,
  OVERLONG_MAX,
  OVERLONG_MIN,
} from '../../specs/fuzz/arbitraries/invalidOverlongCredentials.ts';
import { invalidRawHeaderBytes } from '../../specs/fuzz/arbitraries/invalidRawHeaderBytes.ts';
import { invalidSchemeOnly } from '../../specs/fuzz/arbitraries/invalidSchemeOnly.ts';
import { invalidToken68Credentials } from '../../specs/fuzz/arbitraries/invalidToken68Credentials.ts';
import { invalidTokenInQueryAndHeader } from '../../specs/fuzz/arbitraries/invalidTokenInQueryAndHeader.ts';
import { junkAuthorizationCase } from '../../specs/fuzz/arbitraries/junkAuthorizationCase.ts';
import { malformedAuthorizationCase } from '../../specs/fuzz/arbitraries/malformedAuthorizationCase.ts';
import { schemeInAnyCase } from '../../specs/fuzz/arbitraries/schemeInAnyCase.ts';
import { separatingSpaces } from '../../specs/fuzz/arbitraries/separatingSpaces.ts';
import { validApikeyAuthorization } from '../../specs/fuzz/arbitraries/validApikeyAuthorization.ts';
import { validBasicAuthorization } from '../../specs/fuzz/arbitraries/validBasicAuthorization.ts';
import { validBasicUserPass } from '../../specs/fuzz/arbitraries/validBasicUserPass.ts';
import { validBearerAuthorization } from '../../specs/fuzz/arbitraries/validBearerAuthorization.ts';
import { validCredentialVariant } from '../../specs/fuzz/arbitraries/validCredentialVariant.ts';
import { validToken68 } from '../../specs/fuzz/arbitraries/validToken68.ts';
import { validUnknownSchemeAuthorization } from '../../specs/fuzz/arbitraries/validUnknownSchemeAuthorization.ts';
import { wrongCredentialCase } from '../../specs/fuzz/arbitraries/wrongCredentialCase.ts';
import { transportFor } from '../../specs/fuzz/clients/select.ts';
import {
  APIKEY,
  BASE64_PADDED,
  BASIC,
  BEARER,
  CONTROL,
  CREDENTIALS_TOKEN68,
  CTL,
  decodeBasic,
  FIELD_VALUE,
  isSchemeCredential,
  isWellFormedCredential,
  stripOws,
  TOKEN,
  TOKEN68,
} from './grammar.ts';

const RUNS = 300;
const NON_ASCII = /[^\p{ASCII}]/u;
/** A character that is not one octet (beyond U+00FF). */
const BEYOND_LATIN1 = /[^\p{ASCII}\u0080-\u00ff]/u;
const sample = <T>(arb: fc.Arbitrary<T>, numRuns = RUNS): T[] => fc.sample(arb, { seed: 42, numRuns });

test.describe('the grammar used to judge the arbitraries', () => {
  test('accepts the RFCs’ own examples and refuses near misses', () => {
    expect(BEARER.test('Bearer mF_9.B5f-4.1JqM')).toBe(true); // RFC 6750 §2.1
    expect(BASIC.test('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toBe(true); // RFC 7617 §2
    expect(decodeBasic('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toEqual({
      userId: 'Aladdin',
      password: 'open sesame',
    });
    expect(APIKEY.test('apikey gck_abc')).toBe(true);
    expect(TOKEN68.test('abc==')).toBe(true);
    expect(TOKEN68.test('a=b')).toBe(false);
    expect(TOKEN68.test('a b')).toBe(false);
    expect(TOKEN.test('Bea rer')).toBe(false);
    expect(BEARER.test('Bearer\tabc')).toBe(false);
    expect(BASE64_PADDED.test('QQ==')).toBe(true);
    expect(BASE64_PADDED.test('QQ')).toBe(false);
    expect(BASE64_PADDED.test('Q-_A')).toBe(false);
    expect(decodeBasic('Basic QWxhZGRpbg==')).toBeUndefined(); // "Aladdin": no colon
    expect(CTL.test('a\tb')).toBe(true);
    expect(FIELD_VALUE.test('Bearer \xff')).toBe(true);
    expect(FIELD_VALUE.test('Bearer \r\n')).toBe(false);
    expect(stripOws(' \tBearer x \t')).toBe('Bearer x');
  });
});

test.describe('valid… arbitraries produce what the grammar accepts', () => {
  test('validToken68: token68 (RFC 9110 §11.2), padded and unpadded', () => {
    const values = sample(validToken68());
    for (const v of values) expect(v).toMatch(TOKEN68);
    expect(values.some((v) => v.endsWith('='))).toBe(true);
    expect(values.some((v) => !v.endsWith('='))).toBe(true);
  });

  test('schemeInAnyCase: the same token in other letter cases (RFC 9110 §11.1)', () => {
    const values = sample(schemeInAnyCase('Bearer'));
    for (const v of values) {
      expect(v).toMatch(TOKEN);
      expect(v.toLowerCase()).toBe('bearer');
    }
    expect(new Set(values).size).toBeGreaterThan(10);
  });

  test('separatingSpaces: 1*SP (RFC 9110 §11.4)', () => {
    for (const v of sample(separatingSpaces())) expect(v).toMatch(/^ +$/);
  });

  test('validBearerAuthorization: "Bearer" 1*SP b64token (RFC 6750 §2.1)', () => {
    for (const v of sample(validBearerAuthorization())) expect(v).toMatch(BEARER);
  });

  test('validBasicUserPass: user-id without ":", no control characters; passwords with ":" and UTF-8 occur', () => {
    const values = sample(validBasicUserPass(), 1000);
    const offenders = values.filter(
      ({ userId, password }) => userId.includes(':') || CONTROL.test(userId) || CONTROL.test(password),
    );
    expect(offenders).toEqual([]);
    expect(values.some(({ password }) => password.includes(':'))).toBe(true);
    expect(values.some(({ password, userId }) => NON_ASCII.test(password + userId))).toBe(true);
  });

  test('validBasicAuthorization: "Basic" 1*SP base64(UTF-8(user-id ":" password)) (RFC 7617 §2)', () => {
    for (const v of sample(validBasicAuthorization())) {
      expect(v).toMatch(BASIC);
      const decoded = decodeBasic(v);
      expect(decoded).toBeDefined();
      expect(decoded?.userId).not.toMatch(CONTROL);
    }
  });

  test('validApikeyAuthorization: "Apikey" 1*SP token68 (seed §5)', () => {
    for (const v of sample(validApikeyAuthorization())) expect(v).toMatch(APIKEY);
  });

  test('validUnknownSchemeAuthorization: auth-scheme 1*SP token68, the scheme none of the seed’s', () => {
    for (const v of sample(validUnknownSchemeAuthorization())) {
      expect(v).toMatch(CREDENTIALS_TOKEN68);
      expect(['bearer', 'basic', 'apikey']).not.toContain(v.split(' ')[0]?.toLowerCase());
    }
  });

  test('validCredentialVariant: OWS scheme(any case) 1*SP credentials OWS, credentials byte for byte', () => {
    const canonical = { scheme: 'Basic', credentials: 'QWxhZGRpbjpvcGVuIHNlc2FtZQ==' };
    const values = sample(validCredentialVariant(canonical));
    for (const v of values) {
      const inner = stripOws(v);
      expect(inner).toMatch(BASIC);
      expect(inner.split(/ +/)[1]).toBe(canonical.credentials);
    }
    expect(values.some((v) => v !== stripOws(v))).toBe(true);
    // Shrinks to the canonical spelling: the smallest counterexample of a property that always fails.
    const details = fc.check(
      fc.property(validCredentialVariant(canonical), () => false),
      { seed: 1 },
    );
    expect(details.counterexample?.[0]).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
  });

  test('wrongCredentialCase: every value is well-formed', () => {
    for (const r of sample(wrongCredentialCase())) {
      expect(r.authorization).toHaveLength(1);
      expect(r.authorization[0]).toMatch(CREDENTIALS_TOKEN68);
    }
  });
});

test.describe('invalid… arbitraries produce what the grammar rejects', () => {
  test('invalidEmptyAuthorization: nothing once OWS is stripped (RFC 9110 §5.5)', () => {
    for (const v of sample(invalidEmptyAuthorization())) {
      expect(stripOws(v)).toBe('');
      expect(isSchemeCredential(v)).toBe(false);
    }
  });

  test('invalidSchemeOnly: a known scheme with no credentials', () => {
    for (const v of sample(invalidSchemeOnly())) {
      expect(['bearer', 'basic', 'apikey']).toContain(stripOws(v).toLowerCase());
      expect(isSchemeCredential(v)).toBe(false);
    }
  });

  test('invalidToken68Credentials: credentials that are not token68', () => {
    for (const v of sample(invalidToken68Credentials())) {
      expect(isSchemeCredential(v)).toBe(false);
      expect(stripOws(v)).toBe(v); // the violation is inside, not stripped away
    }
  });

  test('invalidBase64Credentials: token68 but not base64 (RFC 4648 §4)', () => {
    for (const v of sample(invalidBase64Credentials())) {
      expect(v).toMatch(BASIC);
      expect(v.split(' ')[1]).not.toMatch(BASE64_PADDED);
    }
  });

  test('invalidBasicNoColon: base64 of a text without ":"', () => {
    for (const v of sample(invalidBasicNoColon())) {
      expect(v).toMatch(BASIC);
      expect(v.split(' ')[1]).toMatch(BASE64_PADDED);
      expect(decodeBasic(v)).toBeUndefined();
    }
  });

  test('invalidBasicControlChars: user-id or password with a CTL (RFC 7617 §2)', () => {
    for (const v of sample(invalidBasicControlChars())) {
      const decoded = decodeBasic(v);
      expect(decoded).toBeDefined();
      expect(`${decoded?.userId}${decoded?.password}`).toMatch(CTL);
    }
  });

  test('invalidOverlongCredentials: well-formed but 4,097 to 8,000 characters of credentials', () => {
    for (const v of sample(invalidOverlongCredentials(), 50)) {
      expect(isSchemeCredential(v)).toBe(true);
      const credentials = v.slice(v.indexOf(' ') + 1);
      expect(credentials.length).toBeGreaterThanOrEqual(OVERLONG_MIN);
      expect(credentials.length).toBeLessThanOrEqual(OVERLONG_MAX);
    }
  });

  test('invalidCredentialWhitespace: whitespace the grammar does not allow there', () => {
    for (const v of sample(invalidCredentialWhitespace())) expect(isSchemeCredential(v)).toBe(false);
  });

  test('invalidRawHeaderBytes: octets outside VCHAR / SP / HTAB, so never a credential', () => {
    const values = sample(invalidRawHeaderBytes());
    // One expect over the offenders: thousands of expect calls would dominate the test's time.
    const offenders = values.filter(
      (v) => /^[\t\x20-\x7e]*$/.test(v) || isSchemeCredential(v) || BEYOND_LATIN1.test(v),
    );
    expect(offenders).toEqual([]);
    expect(values.some((v) => v.includes('\r'))).toBe(true);
    expect(values.some((v) => v.includes('\n'))).toBe(true);
    expect(values.some((v) => v.includes('\0'))).toBe(true);
    expect(values.some((v) => /[\x80-\xff]/.test(v))).toBe(true);
  });

  test('invalidDuplicateAuthorization: two field lines (RFC 9110 §5.3)', () => {
    for (const lines of sample(invalidDuplicateAuthorization(validBearerAuthorization())))
      expect(lines).toHaveLength(2);
  });

  test('invalidTokenInQueryAndHeader: the same token in the header and access_token (RFC 6750 §2)', () => {
    for (const { header, query } of sample(invalidTokenInQueryAndHeader())) {
      expect(header).toMatch(BEARER);
      expect(new URLSearchParams(query).get('access_token')).toBe(header.slice('Bearer '.length));
    }
  });

  test('malformedAuthorizationCase: no case is a well-formed credential of the seed’s schemes', () => {
    for (const r of sample(malformedAuthorizationCase(), 1000)) {
      const only =
        r.authorization.length === 1 && r.query === undefined ? (r.authorization[0] as string) : undefined;
      const wellFormed =
        only !== undefined && r.kind !== 'invalidOverlongCredentials' && isWellFormedCredential(only);
      expect(wellFormed, `${r.kind}: ${JSON.stringify(r.authorization)}`).toBe(false);
    }
  });
});

test.describe('client choice', () => {
  test('the raw socket carries exactly the cases with control octets', () => {
    for (const r of sample(junkAuthorizationCase(), 1000)) {
      const needsRaw = r.authorization.some((v) => !FIELD_VALUE.test(v));
      expect(transportFor(r), JSON.stringify(r.authorization)).toBe(needsRaw ? 'raw' : 'http');
    }
  });
});
