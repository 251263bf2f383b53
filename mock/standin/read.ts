/**
 * Reads the document the mock stands in for (`--openapi <file|url>`) with `gatecheck init`'s own reader
 * (cli/init/read-document.ts: JSON or YAML, a file or an http(s) URL, `$ref`s resolved, Swagger 2.0 upgraded),
 * so the mock and init read one document the same way. Loaded only when asked for: a mock of the bundled
 * interface starts without the OpenAPI libraries.
 */
import { ConfigError } from '../util/config-error.ts';

type Json = Record<string, unknown>;

export async function readStandInDocument(source: string): Promise<Json> {
  const { readOpenApi } = await import('../../cli/init/read-document.ts');
  try {
    return (await readOpenApi(source)).doc;
  } catch (error) {
    // init's one line starts with `init: `; the mock's says which flag it is about.
    const line = (error instanceof Error ? error.message : String(error)).replace(/^init:\s*/, '');
    throw new ConfigError(`--openapi: ${line}`);
  }
}
