/**
 * `gatecheck init --writes` on whole published documents, one line each: the time it took, the claims.ts
 * verdict (claims the document does not make), and what it picked. Not a test: the whole documents are not
 * in the repository (tests/cli/init/corpus/SOURCES.md names them); point it at copies:
 *
 *   npx tsx tests/cli/init/full-documents.ts path/to/openapi.yaml path/to/other.json …
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInit } from '../../../cli/init/command.ts';
import { readOpenApi } from '../../../cli/init/read-document.ts';
import { unfoundedClaims } from './claims.ts';

const files = process.argv.slice(2);
for (const f of files) {
  const out = join(tmpdir(), `gatecheck-full-${f.replace(/\W/g, '_')}.json`);
  rmSync(out, { force: true });
  rmSync(out.replace(/\.json$/, '.env.example'), { force: true });
  const t = performance.now();
  try {
    await runInit(
      { source: f, out, force: true, probe: undefined, writes: true },
      { out: () => {}, err: () => {} },
    );
    const ms = Math.round(performance.now() - t);
    const profile = JSON.parse(readFileSync(out, 'utf8'));
    const { doc } = await readOpenApi(f);
    const c = unfoundedClaims(doc, profile);
    const e = profile.endpoints;
    console.log(
      `${f.split('/').slice(-1)[0]} ${ms}ms unfounded=${c.length} ${c.join(' | ')} :: pub=${e.public?.path ?? '-'} prot=${e.protected ? `${e.protected.method} ${e.protected.path} [${e.protected.schemes}]` : '-'} admin=${e.admin?.path ?? '-'} coll=${e.collection?.path ?? '-'} base=${profile.baseUrl ?? '-'} key=${profile.apikeyScheme ?? '-'} todo=${profile.todo.length}`,
    );
  } catch (err) {
    console.log(`${f} CRASH ${(err as Error).message}`);
  }
}
