/**
 * The mock CLI's defect flags (mock/cli.ts): `--defect <name>` (repeatable) switches a defect on,
 * `--list-defects` prints the registry and exits. Kept here so the CLI stays a list of flags.
 */
import { DEFECT_NAMES, DEFECTS, type DefectName, type DefectSpec } from '../defects/registry.ts';

export const DEFECT_OPTIONS = {
  defect: { type: 'string', multiple: true },
  'list-defects': { type: 'boolean' },
} as const;

export interface DefectFlags {
  defect?: string[];
  'list-defects'?: boolean;
}

export const DEFECT_USAGE = `
Defect modes (docs/defects.md; never on by default):
      --defect <name>  Switch on a named, realistic bug (repeatable), e.g. --defect alg-none
      --list-defects   List the defects and what each breaks`;

/**
 * `{ defects }` for startMock, or the one-line error for an unknown name. `invokedAs` is how the user started
 * the mock (`gatecheck-mock`, or `npm run mock --` in a clone), for the commands the messages suggest.
 */
export function defectOverrides(
  flags: DefectFlags,
  invokedAs = 'npm run mock --',
): { defects?: DefectName[] } | string {
  const given = flags.defect ?? [];
  if (given.length === 0) return {};
  const unknown = given.find((name) => !(DEFECT_NAMES as readonly string[]).includes(name));
  if (unknown !== undefined) {
    return `--defect: unknown defect "${unknown}" (${invokedAs} --list-defects lists them)`;
  }
  return { defects: [...new Set(given as DefectName[])] };
}

/** The `--list-defects` text: per layer, each name with the bug and where it is seen. */
export function defectListing(invokedAs = 'npm run mock --'): string {
  const lines = [
    `${DEFECTS.length} defect modes (${invokedAs} --defect <name>; the rules that catch each: docs/defects.md):`,
  ];
  let layer = '';
  for (const defect of DEFECTS as readonly DefectSpec[]) {
    if (defect.layer !== layer) {
      layer = defect.layer;
      lines.push('', `${layer}:`);
    }
    lines.push(`  ${defect.name}`, `      ${defect.bug}`, `      seen in: ${defect.seenIn}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Banner lines for a mock with defects on: impossible to miss. */
export function defectBanner(names: readonly string[]): string[] {
  if (names.length === 0) return [];
  return [`  DEFECTS ${names.join(', ')} — broken on purpose, not conformant (docs/defects.md)`];
}
