/**
 * Where the suite's own lines go (the fuzz seed line, the conformance summary, the CLI's lines): stdout,
 * unless a chosen reporter prints a machine-readable document there — Playwright's `json` and `junit`
 * without an output file — and then stderr, so that `--reporter=json > out.json` writes a file a JSON parser
 * reads (issue #31). Playwright writes those reports to a file when given `outputFile` or `fileName`, or
 * PLAYWRIGHT_<NAME>_OUTPUT_FILE or _OUTPUT_NAME (its resolveOutputFile), else to stdout.
 */

/** One reporter as a config lists it (`['json']`, `['junit', { outputFile }]`) or a `--reporter` name. */
export type ReporterEntry = readonly [name: string, options?: unknown];

/** Playwright's reporters whose document goes to stdout unless a file is named. */
const DOCUMENT_REPORTERS = ['json', 'junit'] as const;

/** The first reporter printing a machine-readable document on stdout, if any. */
export function stdoutDocumentReporter(
  reporters: readonly ReporterEntry[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  for (const [name, options] of reporters) {
    if (!(DOCUMENT_REPORTERS as readonly string[]).includes(name)) continue;
    const named = options as { outputFile?: unknown; fileName?: unknown } | undefined;
    const prefix = `PLAYWRIGHT_${name.toUpperCase()}_OUTPUT_`;
    if (named?.outputFile || named?.fileName || env[`${prefix}FILE`] || env[`${prefix}NAME`]) continue;
    return name;
  }
  return undefined;
}

/** The reporters a `--reporter` value names (`list,json` → list and json), as entries. */
export function reportersNamed(value: string): ReporterEntry[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => [name]);
}

/** stdout, or stderr when a reporter's document is on stdout. */
export function progressStream(
  reporters: readonly ReporterEntry[],
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.WriteStream {
  return stdoutDocumentReporter(reporters, env) === undefined ? process.stdout : process.stderr;
}
