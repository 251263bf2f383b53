/**
 * Path templates (OpenAPI 3.1 §4.8.8 Paths Object, "Path templating" §4.8.1.2): the values a concrete path
 * gives the template's parameters, and a template filled with values. Values are compared decoded
 * (RFC 3986 §2.1 percent-encoding), and written back encoded, so `/orgs/qa%20org` and the key `qa org` meet.
 */

export interface Template {
  readonly text: string;
  /** Parameter names, in the order they appear. */
  readonly names: readonly string[];
  readonly pattern: RegExp;
}

const PARAMETER = /\{([^}/]+)\}/g;

export function parseTemplate(text: string): Template {
  const names: string[] = [];
  const source = text
    .split(PARAMETER)
    .map((part, i) => {
      if (i % 2 === 1) {
        names.push(part);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    })
    .join('');
  return { text, names, pattern: new RegExp(`^${source}$`) };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The parameters' values in `path` (decoded), or undefined when it does not match. */
export function valuesOf(template: Template, path: string): string[] | undefined {
  const m = template.pattern.exec(path);
  return m === null ? undefined : m.slice(1).map(decoded);
}

/** The template with its parameters filled in order (encoded). */
export function fill(template: Template, values: readonly string[]): string {
  let i = 0;
  return template.text.replace(PARAMETER, () => encodeURIComponent(values[i++] ?? ''));
}
