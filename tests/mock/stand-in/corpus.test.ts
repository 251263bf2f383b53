/**
 * The two halves check each other (issue #43): for every document of init's corpus that declares security,
 * the mock standing in for it (`--openapi`) + `gatecheck init` on the mock's `/openapi.json` + a run of the MUST
 * rules with the credentials the mock prints → no MUST rule fails but those init names up front as the
 * document's own contradiction (its 201 or 204 against the interface's 200, a PUT it does not define), and
 * every MUST skip says what is missing. scripts/stand-in-corpus.ts prints the same as a table.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CORPUS, checkDocument, isCorpusDocument } from '../../../scripts/stand-in-corpus.ts';

/** The corpus's documents, read when the file is loaded: one test each. */
const CORPUS_NAMES = readdirSync(CORPUS)
  .filter(isCorpusDocument)
  .map((f) => f.replace(/\.(json|ya?ml)$/, ''))
  .sort();

/** Documents the check leaves out: they declare no security (every operation public). */
async function declaresSecurity(name: string): Promise<boolean> {
  const file = (await corpusDocumentsFiles()).find((f) => f.replace(/\.(json|ya?ml)$/, '') === name);
  const text = await readFile(path.join(CORPUS, file as string), 'utf8');
  // OpenAPI 3's securitySchemes or Swagger 2.0's securityDefinitions, and a `security` requirement somewhere.
  return /security(Schemes|Definitions)/.test(text) && /(^|[\s{,"])security"?\s*:/m.test(text);
}

async function corpusDocumentsFiles(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(CORPUS)).filter(isCorpusDocument);
}

/**
 * Failures that follow from a reading the document leaves to its reader, named here with the reason so that
 * any other failure fails this test. Not the document's 201/204: init names those up front itself.
 */
const DOCUMENT_READINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  petstore: {
    'authz.403.lacking-scope':
      'its one addressable protected read (GET /pet/findByStatus) asks for write:pets too, so the user who may read it may write',
  },
  mastodon: {
    'success.200.protected': CLIENT_CREDENTIALS_SCOPES(),
    'success.200.post': CLIENT_CREDENTIALS_SCOPES(),
    'request.400.body-not-json': CLIENT_CREDENTIALS_SCOPES(),
    'request.400.body-wrong-type': CLIENT_CREDENTIALS_SCOPES(),
    'route.404.unknown-id': CLIENT_CREDENTIALS_SCOPES(),
    // The fault is sent with the admin's credentials to the protected read, which its token cannot open.
    'server.500.fault': CLIENT_CREDENTIALS_SCOPES(),
  },
};

function CLIENT_CREDENTIALS_SCOPES(): string {
  return "its clientCredentials flow lists read:accounts only, the operations need profile, read:lists, write:lists (its authorizationCode flow's): init's admin fetches a client-credentials token with the flow's scopes, which the document's own token endpoint could not widen";
}

// One test per document (≈ 20–60 s each: a mock start and an init in this process, a MUST run in a child), so each is
// bounded on its own and workers may share them out.
test.describe.configure({ mode: 'parallel', timeout: 240_000 });

for (const name of CORPUS_NAMES) {
  test(`${name}: the suite against the mock of it fails only what the document contradicts`, async () => {
    test.skip(
      !(await declaresSecurity(name)),
      'the document declares no security: every operation is public',
    );
    const row = await checkDocument(name);
    const unexpected = row.failReasons.filter(
      (f) =>
        !row.contradicted.some((id) => f.startsWith(`${id}:`)) &&
        DOCUMENT_READINGS[name]?.[f.split(':')[0] as string] === undefined,
    );
    const unexplained = row.skip
      .filter((s) => !/profile lacks |precondition not met/.test(s.reason))
      .map((s) => `${s.id}: ${s.reason}`);
    expect(unexplained).toEqual([]);
    expect(unexpected).toEqual([]);
    // The rules init names up front as the document's own do fail: the run checks them, it does not skip them.
    expect(
      row.contradicted.filter((id) => !row.fail.includes(id) && !row.skip.some((s) => s.id === id)),
    ).toEqual([]);
  });
}
