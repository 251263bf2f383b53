/**
 * Issue #42's before/after table: runs each red-team case of tests/attest/red-team-cases.ts through
 * `gatecheck verify` and prints case, expected, what came (exit code and first line) as Markdown rows.
 * `npx tsx scripts/red-team-table.ts` — on this code, and on an older checkout for the "before" column.
 */
import { RED_TEAM } from '../tests/attest/red-team-cases.ts';

/** Markdown-safe, control characters shown as \uXXXX (self-contained: it also runs on older checkouts). */
const cell = (text: string) =>
  [...text.replace(/\|/g, '\\|')]
    .map((c) => (c.charCodeAt(0) < 0x20 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');

console.log('| case | expected | exit | got | as expected |');
console.log('| --- | --- | --- | --- | --- |');
for (const c of RED_TEAM) {
  const started = process.hrtime.bigint();
  const ran = await c.run();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const line = (ran.err || ran.out).split('\n').find((l) => l.trim() !== '') ?? '';
  const good = ran.code === c.expectedCode && c.check?.(ran) === undefined;
  console.log(
    `| ${cell(c.name)} | ${cell(c.expected)} (exit ${c.expectedCode}) | ${ran.code} | ${cell(line.slice(0, 160))} (${ms.toFixed(0)} ms) | ${good ? 'yes' : 'no'} |`,
  );
}
