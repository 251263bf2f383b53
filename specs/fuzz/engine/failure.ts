/**
 * The report of a failed fuzz rule (STYLE.md "Property tests": seed, path and the shrunk counterexample),
 * as one message and as the evidence record the reporter shows. The counterexample is given as the exact
 * octets of each Authorization line, JSON-escaped; known secrets (the profile's credentials, tokens the
 * suite minted) are redacted wherever they appear, generated junk is shown as sent.
 */

import { ENV } from '../../../shared/env.ts';
import { shellQuote } from '../../../shared/shell.ts';
import type { Evidence } from '../../lib/evidence.ts';
import { redactSecrets } from '../../lib/redact.ts';
import { redactText } from '../../lib/secrets.ts';
import type { Outcome } from '../clients/types.ts';
import type { Sweep } from './classes.ts';
import { jsonBytes, replayLine } from './replay.ts';
import { FUZZ_REPLAY_ENV } from './settings.ts';
import type { Exchange, FuzzFailure, FuzzPropertyOptions, FuzzStats } from './types.ts';
import type { Verdict } from './verdict.ts';
import { describeOutcome } from './verdict.ts';

const SHOWN_HEADERS = ['content-type', 'www-authenticate', 'retry-after', 'connection'];

function responseSummary(outcome: Outcome): string {
  if (outcome.kind === 'dropped') return `no response: ${outcome.error}`;
  const headers = SHOWN_HEADERS.filter((h) => outcome.headers[h] !== undefined).map(
    (h) => `${h}: ${outcome.headers[h]}`,
  );
  const body = outcome.body.length > 300 ? `${outcome.body.slice(0, 300)}…` : outcome.body;
  return `${outcome.status}${headers.length ? ` (${headers.join('; ')})` : ''}${body ? ` ${body.replace(/\s+/g, ' ')}` : ''}`;
}

export function describeFailure(
  options: FuzzPropertyOptions,
  stats: FuzzStats,
  ex: Exchange,
  verdict: Extract<Verdict, { result: 'fail' }>,
  path: string,
  numShrinks: number,
): FuzzFailure {
  const { rule } = options;
  const redact = (text: string): string => redactSecrets(redactText(text), options.secrets ?? []);
  const actual = verdict.actual ?? describeOutcome(ex.outcome);
  const replay = replayLine(ex.wire);
  const rerun = [
    `${ENV.seed}=${stats.runSeed}`,
    `${FUZZ_REPLAY_ENV}=${shellQuote(`${rule.id}:${path}`)}`,
    `npx playwright test --grep ${shellQuote(`@rule:${rule.id}`)}`,
  ].join(' ');
  const lines =
    ex.request.authorization.length === 0
      ? ['(no Authorization header)']
      : ex.request.authorization.map((value) => `Authorization: ${jsonBytes(value)}`);

  const message = redact(
    [
      `[${rule.id}] ${rule.level}: ${rule.requirement}`,
      `  falsified after ${stats.cases} cases, shrunk ${numShrinks} times (${stats.shrinkCases} more requests)`,
      `  seed:     ${stats.runSeed} (${options.seedSource ?? 'given'}; this rule's fast-check seed ${stats.ruleSeed}), path: ${JSON.stringify(path)}`,
      `  request:  ${ex.wire.method} ${ex.wire.url}  [${ex.client}]`,
      `  counterexample (${ex.request.kind}${ex.request.query === undefined ? '' : `, query ${JSON.stringify(ex.request.query)}`}):`,
      ...lines.map((line) => `    ${line}`),
      `  expected: ${verdict.expected}`,
      `  actual:   ${actual}`,
      `  response: ${responseSummary(ex.outcome)}`,
      `  replay:   ${replay}`,
      `  rerun:    ${rerun}`,
    ].join('\n'),
  );

  const headers: Record<string, string> = {};
  ex.request.authorization.forEach((value, i) => {
    headers[i === 0 ? 'authorization' : `authorization (line ${i + 1})`] = redact(value);
  });
  const evidence: Evidence = {
    rule: rule.id,
    expected: verdict.expected,
    actual: redact(actual),
    request: { method: ex.wire.method, url: redact(ex.wire.url), headers },
    ...(ex.outcome.kind === 'response'
      ? {
          response: {
            status: ex.outcome.status,
            headers: Object.fromEntries(Object.entries(ex.outcome.headers).map(([k, v]) => [k, redact(v)])),
            body: redact(ex.outcome.body),
          },
        }
      : {}),
    replay: redact(`${replay}\n# rerun: ${rerun}`),
  };
  return { message, evidence, exchange: ex, expected: verdict.expected, actual, path, numShrinks };
}

/**
 * The failure with every failing class the sweep found (specs/fuzz/engine/classes.ts): a count of classes in
 * the message's first lines, then one counterexample per class other than the first, with its replay line.
 */
export function withClasses(options: FuzzPropertyOptions, failure: FuzzFailure, sweep: Sweep): FuzzFailure {
  const redact = (text: string): string => redactSecrets(redactText(text), options.secrets ?? []);
  const lines = [
    `  failing classes: ${sweep.keys.length} (generator kind → answer): ${sweep.keys.join('; ')}`,
    ...sweep.extra.flatMap((found, i) => {
      const ex = found.failed.exchange;
      return [
        `  class ${i + 2}: ${found.key} — ${found.shrunk ? `shrunk within its class (path ${JSON.stringify(found.path)} of the sweep)` : 'as first seen'}`,
        ...(ex.request.authorization.length === 0
          ? ['    (no Authorization header)']
          : ex.request.authorization.map((value) => `    Authorization: ${jsonBytes(value)}`)),
        `    expected: ${found.failed.verdict.expected}`,
        `    response: ${responseSummary(ex.outcome)}`,
        `    replay:   ${replayLine(ex.wire)}`,
      ];
    }),
    ...(sweep.keys.length - 1 > sweep.extra.length
      ? [`  (${sweep.keys.length - 1 - sweep.extra.length} more classes counted, not shown)`]
      : []),
  ];
  const [head, ...rest] = failure.message.split('\n');
  return {
    ...failure,
    classes: sweep.keys,
    message: [head, redact(lines[0] as string), ...rest, ...lines.slice(1).map(redact)].join('\n'),
  };
}
