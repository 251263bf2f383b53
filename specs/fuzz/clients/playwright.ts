/**
 * Playwright's APIRequestContext as a fuzz client. Slower than node:http (about 2,100 requests/s at 16 in
 * flight here) because every call crosses Playwright's client/server protocol, but each request then shows
 * in the test's trace next to the rule. Used for the JWT attack catalogue: few cases, ASCII tokens, and
 * the trace is what a vendor opens to see which forged token their server took.
 */
import type { APIRequestContext } from '@playwright/test';
import { BODY_LIMIT, type Client, type Outcome, type WireRequest } from './types.ts';

export function createPlaywrightClient(
  context: APIRequestContext,
  options: { readonly timeoutMs: number },
): Client {
  return {
    name: 'playwright',
    // One line of visible ASCII (SP/HTAB inside), no surrounding whitespace: what it sends unchanged.
    canSend: (request) =>
      request.authorization.length <= 1 &&
      request.authorization.every((value) => /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/.test(value)),
    async send(request: WireRequest): Promise<Outcome> {
      if (request.authorization.length > 1)
        throw new TypeError('APIRequestContext cannot send two Authorization lines');
      const value = request.authorization[0];
      try {
        const response = await context.fetch(request.url, {
          method: request.method,
          headers: value === undefined ? {} : { authorization: value },
          maxRedirects: 0,
          failOnStatusCode: false,
          timeout: options.timeoutMs,
        });
        const body = (await response.body()).subarray(0, BODY_LIMIT).toString('utf8');
        const headers: Record<string, string> = {};
        for (const { name, value: v } of response.headersArray()) {
          const lower = name.toLowerCase();
          headers[lower] = headers[lower] === undefined ? v : `${headers[lower]}, ${v}`;
        }
        await response.dispose();
        return { kind: 'response', status: response.status(), headers, body };
      } catch (error) {
        const message =
          error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
        // Playwright's messages name the URL, never the headers.
        return {
          kind: 'dropped',
          error: message,
          ...(/Timeout \d+ms exceeded/i.test(message) ? { timedOut: true as const } : {}),
        };
      }
    },
  };
}
