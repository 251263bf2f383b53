/**
 * A write body must be declared as JSON (RFC 9110 §8.3; 415, §15.5.16): `application/json` or a `+json` type
 * (RFC 6838 §4.2.8), any case, any parameters, or no Content-Type at all; anything else is 415 problem+json
 * with `Accept`, before the body is read — and the server keeps serving on that connection.
 */

import { expect, test } from '@playwright/test';
import { declaresJson } from '../../mock/http/content-type.ts';
import { mockForTests } from '../helpers/mock-for-tests.ts';
import { ADMIN, authorization, call, expectProblem } from './mock-support.ts';

test('declaresJson: application/json and +json types in any case, with parameters, or none; nothing else', () => {
  for (const type of [
    undefined,
    'application/json',
    'Application/JSON; charset=utf-8',
    ' application/json ;charset="UTF-8"',
    'application/merge-patch+json',
    'application/vnd.api+json',
  ])
    expect(declaresJson(type), String(type)).toBe(true);
  for (const type of [
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'application/json-seq',
    '',
  ])
    expect(declaresJson(type), type).toBe(false);
});

const mock = mockForTests({ host: '127.0.0.1' });

const post = (contentType: string | undefined, body: string) =>
  call(mock.url, 'POST', '/users', {
    headers: {
      authorization: authorization(ADMIN, 'basic'),
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    },
    body,
  });

test('POST /users with a JSON item declared text/plain → 415 problem+json with Accept; as application/json → 200', async () => {
  const item = JSON.stringify({ name: 'Content Type', email: 'ct@example.test' });
  const refused = await post('text/plain', item);
  expectProblem(refused, 415);
  expect(refused.header('accept')).toBe('application/json');
  const accepted = await post('application/json; charset=utf-8', item);
  expect(accepted.status).toBe(200);
  const id = String(accepted.json().id);
  expect(
    (
      await call(mock.url, 'DELETE', `/users/${id}`, {
        headers: { authorization: authorization(ADMIN, 'basic') },
      })
    ).status,
  ).toBe(200);
});

test('POST /users without Content-Type is read as JSON (json-server compatible); credentials are still checked first', async () => {
  const answer = await post(undefined, '"not an object"');
  expectProblem(answer, 400);
  // Refused credentials answer before the media type is looked at.
  expect(
    (await call(mock.url, 'POST', '/users', { headers: { 'content-type': 'text/plain' }, body: 'x' })).status,
  ).toBe(401);
});
