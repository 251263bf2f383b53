/** init's corpus of published OpenAPI documents (tests/cli/init/corpus/), by name. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS = fileURLToPath(new URL('../../tests/cli/init/corpus/', import.meta.url));

/** A corpus document's file: not an expected profile, nor a claims file (`<name>.claims.json`, `<name>.writes.claims.json`). */
export function isCorpusDocument(file: string): boolean {
  return /\.(json|ya?ml)$/.test(file) && !file.includes('expected') && !file.includes('.claims.');
}

function nameOf(file: string): string {
  return file.replace(/\.(json|ya?ml)$/, '');
}

/** Corpus documents, by name. */
export function corpusDocuments(): string[] {
  return readdirSync(CORPUS).filter(isCorpusDocument).map(nameOf).sort();
}

/** The document's file. */
export function documentPath(name: string): string {
  const file = readdirSync(CORPUS).find((f) => isCorpusDocument(f) && nameOf(f) === name);
  if (file === undefined) throw new Error(`no corpus document ${name}`);
  return path.join(CORPUS, file);
}

/** Whether the document declares security; one that does not (every operation public) leaves nothing to check. */
export function declaresSecurity(name: string): boolean {
  const text = readFileSync(documentPath(name), 'utf8');
  // OpenAPI 3's securitySchemes or Swagger 2.0's securityDefinitions, and a `security` requirement somewhere.
  return /security(Schemes|Definitions)/.test(text) && /(^|[\s{,"])security"?\s*:/m.test(text);
}
