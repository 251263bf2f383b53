/**
 * What `gatecheck init --probe` prints and adds to the to-do list (issue #69): every request sent with its
 * answer, how many, and for each pick whether the answers confirmed it or passed it over (the answer quoted);
 * a pick of the written profile that no answer confirmed is a to-do line with the reason.
 */
import type { ProbedPicks } from './probe-picks.ts';
import { PROBED_ROLES } from './verify-endpoints.ts';

type Endpoints = Record<string, { method?: string; path?: string } | undefined>;

/** The printed section: requests, answers, verdicts. */
export function probeReport(baseUrl: string, { prober, verdicts }: ProbedPicks): string {
  const lines = [
    `Probe of ${baseUrl}: ${prober.sent.length} request${prober.sent.length === 1 ? '' : 's'}, GET only, none with a body, none outside ${baseUrl}:`,
    ...prober.sent.map((a) => `  ${a.request} → ${a.status ?? `no answer (${a.error})`}`),
    'Picks checked against the answers:',
    ...verdicts.flatMap((v) => [
      `  - ${v.role} ${v.endpoint}: ${v.contradiction === undefined ? (v.answers.length > 0 ? 'not contradicted' : 'not asked') : `passed over — ${v.contradiction}`}`,
      ...v.notes.map((n) => `      ${n}`),
    ]),
    ...(prober.stopped === undefined ? [] : [`  Stopped: ${prober.stopped}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** To-do lines for the written profile's reads that no answer confirmed. */
export function unconfirmed({ result, verdicts, prober }: ProbedPicks): string[] {
  const endpoints = result.profile.endpoints as Endpoints;
  const out: string[] = [];
  for (const role of PROBED_ROLES) {
    const e = endpoints[role];
    if (e === undefined) continue;
    const endpoint = `${String(e.method ?? 'GET').toUpperCase()} ${String(e.path)}`;
    const verdict = verdicts.find((v) => v.role === role && v.endpoint === endpoint);
    const answered = verdict?.answers.some((a) => a.status !== undefined) === true;
    if (!answered)
      out.push(
        `/endpoints/${role}: --probe could not confirm ${endpoint}: ${verdict?.notes[0] ?? prober.stopped ?? 'not asked'}`,
      );
  }
  return out;
}
