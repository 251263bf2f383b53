/**
 * DSSE's encoding against its specification's worked example (secure-systems-lab/dsse protocol.md v1.0.2,
 * "Test Vectors"): the PAE bytes, and the published envelope's signature verifying over our PAE with the
 * published P-256 key. Base64 as DSSE reads it: standard or URL-safe, nothing else.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { decodeBase64 } from '../../cli/attest/base64.ts';
import { keyIdOf } from '../../cli/attest/key-id.ts';
import { openEnvelope } from '../../cli/attest/open-envelope.ts';
import { pae } from '../../cli/attest/pae.ts';

/** protocol.md "Test Vectors": ECDSA over P-256 and SHA-256, signature as raw r‖s. */
const VECTOR = {
  x: 46950820868899156662930047687818585632848591499744589407958293238635476079160n,
  y: 5640078356564379163099075877009565129882514886557779369047442380624545832820n,
  d: 97358161215184420915383655311931858321456579547487070936769975997791359926199n,
  payloadType: 'http://example.com/HelloWorld',
  body: 'hello world',
  pae: 'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
  envelope: {
    payload: 'aGVsbG8gd29ybGQ=',
    payloadType: 'http://example.com/HelloWorld',
    signatures: [
      { sig: 'A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA==' },
    ],
  },
};

/** A P-256 coordinate as JWK wants it: 32 bytes big-endian, base64url (RFC 7518 §6.2.1.2). */
function coordinate(n: bigint): string {
  return Buffer.from(n.toString(16).padStart(64, '0'), 'hex').toString('base64url');
}

async function vectorKey() {
  const jwk = { kty: 'EC', crv: 'P-256', x: coordinate(VECTOR.x), y: coordinate(VECTOR.y) };
  const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
  return { publicKey, algorithm: 'ECDSA P-256' as const, keyId: await keyIdOf(publicKey) };
}

test('PAE of the worked example is "DSSEv1 29 http://example.com/HelloWorld 11 hello world"', () => {
  expect(pae(VECTOR.payloadType, Buffer.from(VECTOR.body)).toString('utf8')).toBe(VECTOR.pae);
});

test("the specification's example envelope verifies over our PAE with its P-256 key; a changed payload does not", async () => {
  const key = await vectorKey();
  // The published private scalar belongs to the published point: the key is read as the spec means it.
  const fromD = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: coordinate(VECTOR.x),
      y: coordinate(VECTOR.y),
      d: coordinate(VECTOR.d),
    },
    format: 'jwk',
  });
  expect(createPublicKey(fromD).export({ format: 'jwk' })).toEqual(key.publicKey.export({ format: 'jwk' }));

  const opened = openEnvelope(VECTOR.envelope, key);
  expect(opened).toEqual({ ok: true, payloadType: VECTOR.payloadType, body: Buffer.from(VECTOR.body) });

  const changed = { ...VECTOR.envelope, payload: Buffer.from('hello World').toString('base64') };
  expect(openEnvelope(changed, key)).toMatchObject({
    ok: false,
    cause: expect.stringMatching(/^signature: does not verify/),
  });
  // The payload type is signed too: the same body under another type does not verify.
  expect(openEnvelope({ ...VECTOR.envelope, payloadType: 'http://example.com/HelloWorld2' }, key).ok).toBe(
    false,
  );
});

test('LEN is the byte length: a non-ASCII payload type counts its UTF-8 bytes', () => {
  expect(pae('tÿpe', Buffer.from('é')).toString('utf8')).toBe('DSSEv1 5 tÿpe 2 é');
  expect(pae('', Buffer.alloc(0)).toString('utf8')).toBe('DSSEv1 0  0 ');
});

test('base64: standard and URL-safe both decode; stray characters, bad padding and non-zero trailing bits do not', () => {
  const bytes = Buffer.from([0xfb, 0xff, 0x01]);
  expect(decodeBase64('+/8B')).toEqual(bytes);
  expect(decodeBase64('-_8B')).toEqual(bytes);
  expect(decodeBase64('aGVsbG8gd29ybGQ=')).toEqual(Buffer.from('hello world'));
  expect(decodeBase64('aGVsbG8gd29ybGQ')).toEqual(Buffer.from('hello world'));
  expect(decodeBase64('aGVsbG8gd29ybGR=')).toBeUndefined(); // the last character's spare bits are not zero
  expect(decodeBase64('aGVsbG8g!d29ybGQ=')).toBeUndefined();
  expect(decodeBase64('aGVsbG8gd29ybGQ==')).toBeUndefined();
  expect(decodeBase64('+_8B')).toBeUndefined(); // alphabets mixed
});
