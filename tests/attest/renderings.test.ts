/**
 * The report's renderings and the statement (specs/report): summary.md and conformance.html name a signed
 * statement only when given one, and a newly written report never sits beside the previous run's statement.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { renderHtml } from '../../specs/report/html.ts';
import { renderMarkdown } from '../../specs/report/markdown.ts';
import type { ConformanceReport } from '../../specs/report/model.ts';
import { STATEMENT_FILE, type StatementNote } from '../../specs/report/statement-note.ts';
import { writeReports } from '../../specs/report/write.ts';
import { reportBytes } from './signing.ts';

const report = JSON.parse(reportBytes().toString('utf8')) as ConformanceReport;
const note: StatementNote = {
  file: STATEMENT_FILE,
  keyId: 'rUjwwtMLanudMqwqYlytglEmxrDTc8QS39ttR4BS76E',
  algorithm: 'Ed25519',
  reportSha256: 'b983452409674be93b6daefe2bb3bfc4119ce1b5a31b78a89f6d5250c8db3d92',
};

test('summary.md and conformance.html name the statement, its key id and the report digest, with the command to check it', () => {
  const markdown = renderMarkdown(report, note);
  expect(markdown).toContain(
    `\`conformance.intoto.jsonl\` is an in-toto statement of this report in a DSSE envelope, signed with key \`${note.keyId}\` (Ed25519); it attests \`conformance.json\` with SHA-256 \`${note.reportSha256}\`.`,
  );
  expect(markdown).toContain(
    "```sh\nnpx gatecheck verify conformance.intoto.jsonl --key <signer's public key> --report conformance.json\n```",
  );
  const html = renderHtml(report, note);
  expect(html).toContain(
    `<section id="statement" data-key-id="${note.keyId}" data-report-sha256="${note.reportSha256}">`,
  );
  expect(html).toContain(
    'npx gatecheck verify conformance.intoto.jsonl --key &lt;signer&#39;s public key&gt;',
  );
  // Unsigned: nothing about a statement, and the same page as before signing existed.
  expect(renderMarkdown(report)).not.toContain('Signed statement');
  expect(renderHtml(report)).not.toContain('id="statement"');
  expect(renderMarkdown(report, note).replace(/### Signed statement[\s\S]*?```\n\n/, '')).toBe(
    renderMarkdown(report),
  );
});

test("writing a report removes the previous run's statement beside it (it attested the previous report)", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-renderings-'));
  try {
    await writeFile(path.join(dir, STATEMENT_FILE), '{"payload":"","payloadType":"","signatures":[]}\n');
    await writeReports(dir, report);
    expect(existsSync(path.join(dir, STATEMENT_FILE))).toBe(false);
    expect(existsSync(path.join(dir, 'conformance.json'))).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
