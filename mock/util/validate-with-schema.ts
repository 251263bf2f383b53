/**
 * Validates the mock's configuration and policy against their JSON Schemas (fixtures/schemas/) with the
 * package's one Ajv set-up (shared/json-schema.ts), and says what is wrong in one line naming the field.
 */
import { type ErrorObject, schemaValidator } from '../../shared/json-schema.ts';
import { ConfigError } from './config-error.ts';

/**
 * Validates `value` against the JSON Schema file at `schemaPath`; throws ConfigError whose message is one
 * line: `<label><path>: <what is expected>` (e.g. `policy.routes[2].methods.GET.schemes[0]: must be one of
 * bearer, basic, apikey`), followed by ` (in <source>)` when a source file is named.
 */
export function validateWithSchema(schemaPath: string, value: unknown, label: string, source?: string): void {
  const validate = schemaValidator(schemaPath);
  if (validate(value)) return;
  const [first] = validate.errors ?? [];
  const line = first === undefined ? `${label}: invalid` : describeError(label, first);
  throw new ConfigError(source === undefined ? line : `${line} (in ${source})`);
}

function describeError(label: string, error: ErrorObject): string {
  let where = label + pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as {
    errorMessage?: string;
    properties?: Record<string, unknown>;
  };
  let what: string;
  switch (error.keyword) {
    case 'additionalProperties': {
      where += segment(String(params.additionalProperty));
      const known = Object.keys(parent.properties ?? {}).filter((k) => k !== '$schema');
      what = `unknown key (expected one of ${known.join(', ')})`;
      break;
    }
    case 'required':
      where += segment(String(params.missingProperty));
      what = 'is required';
      break;
    case 'enum':
      what = `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
      break;
    case 'const':
      what = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case 'type':
      what = `must be ${String(params.type)}`;
      break;
    default:
      what = parent.errorMessage ?? error.message ?? 'is invalid';
  }
  return `${where}: ${what}`;
}

/** `/routes/2/methods/GET` → `.routes[2].methods.GET` (JSON Pointer, RFC 6901, unescaped). */
function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => segment(part.replaceAll('~1', '/').replaceAll('~0', '~')))
    .join('');
}

function segment(key: string): string {
  if (/^\d+$/.test(key)) return `[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return `.${key}`;
  return `[${JSON.stringify(key)}]`;
}
