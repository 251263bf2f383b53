/**
 * Reads an OpenAPI document — JSON or YAML, a file or an http(s) URL — and resolves every `$ref`, with
 * @apidevtools/swagger-parser (maintained, parses both formats, follows external and remote references,
 * knows OpenAPI 3.0 and 3.1). A document it cannot read, or of another version, is a usage error.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { UsageError } from '../exit-codes.ts';

export async function readOpenApi(source: string): Promise<Record<string, unknown>> {
  let doc: Record<string, unknown>;
  try {
    // The user named this document, loopback or private address included: the library's guard against
    // server-side request forgery (safeUrlResolver) protects servers, not a command run by its user.
    doc = (await SwaggerParser.dereference(source, {
      resolve: { http: { safeUrlResolver: false, timeout: 10_000, redirects: 3 } },
    })) as unknown as Record<string, unknown>;
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new UsageError(`init: cannot read the OpenAPI document ${source}: ${why}`);
  }
  const version = typeof doc.openapi === 'string' ? doc.openapi : String(doc.swagger ?? 'unknown');
  if (!/^3\.[01]\./.test(version))
    throw new UsageError(`init: ${source} is OpenAPI ${version}; expected an OpenAPI 3.0 or 3.1 document`);
  return doc;
}
