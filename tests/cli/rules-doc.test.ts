/**
 * docs/rules.md is generated from the catalogue (`npm run docs:rules`); this keeps the committed page equal
 * to what the generator writes now, so the docs never drift from specs/rules/catalogue.ts.
 */

import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { renderRulesMarkdown, renderRulesText } from '../../cli/rules.ts';
import { loadCatalogue } from '../../specs/report/catalogue-source.ts';

const DOC = new URL('../../docs/rules.md', import.meta.url);

test('docs/rules.md equals `gatecheck rules --markdown` (run `npm run docs:rules` after changing the catalogue)', async () => {
  const generated = renderRulesMarkdown(await loadCatalogue());
  const committed = readFileSync(DOC, 'utf8');
  expect(committed, 'docs/rules.md is stale: run `npm run docs:rules`').toBe(generated);
});

test('every catalogue rule appears in both listings, with its level', async () => {
  const catalogue = await loadCatalogue();
  const markdown = renderRulesMarkdown(catalogue);
  const text = renderRulesText(catalogue);
  expect(catalogue.rules.length).toBeGreaterThan(0);
  for (const rule of catalogue.rules) {
    expect(markdown).toMatch(
      new RegExp(`^\\| \`${rule.id.replace(/\./g, '\\.')}\` +\\| ${rule.level} +\\|`, 'm'),
    );
    expect(text).toMatch(new RegExp(`^${rule.id.replace(/\./g, '\\.')} +${rule.level} `, 'm'));
  }
});
