/**
 * References a rule cites. RFC links point at the section on rfc-editor.org; the seed (the interface's
 * own document) is cited by its file name and section, as specs/rules/types.ts asks.
 */
import type { Reference } from './types.ts';

/** The seed document (000_3b1a7f0e57d8007a.txt), copied verbatim into the repository. */
export const SEED_FILE = 'docs/spec.md';

/** Heading anchors of docs/spec.md as a Markdown renderer makes them. */
const SEED_ANCHORS: Readonly<Record<string, string>> = {
  '1': '1-what-the-service-does',
  '2': '2-resources-and-their-fields',
  '3': '3-states-and-transitions',
  '4': '4-endpoints',
  '5': '5-authentication',
  '6': '6-events',
  '7': '7-errors',
  '8': '8-limits',
  '9': '9-versioning',
};

/** `rfc(9110, '15.5.2')` → RFC 9110 §15.5.2, https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2 */
export function rfc(number: number, section: string): Reference {
  return {
    spec: `RFC ${number}`,
    section: `§${section}`,
    url: `https://www.rfc-editor.org/rfc/rfc${number}#section-${section}`,
  };
}

/** `seed('7', '403')` → seed §7 403. */
export function seed(section: string, detail?: string): Reference {
  return {
    spec: 'seed',
    section: `§${section}${detail ? ` ${detail}` : ''}`,
    url: `${SEED_FILE}#${SEED_ANCHORS[section.split('.')[0] ?? ''] ?? ''}`,
  };
}
