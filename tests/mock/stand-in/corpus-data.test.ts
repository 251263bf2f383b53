/**
 * The stand-in's data against published documents of init's corpus (issue #70; scripts/stand-in-corpus/
 * data-probe.ts): every GET answer with a declared schema passes it, every create reads back at its Location,
 * and no operation's body goes unchecked without being listed.
 */
import { expect, test } from '@playwright/test';
import { probeData } from '../../../scripts/stand-in-corpus/data-probe.ts';
import { documentPath } from '../../../scripts/stand-in-corpus/documents.ts';

for (const name of ['realworld', 'pagerduty', 'box', 'kratos', 'netlify', 'vikunja']) {
  test(`${name}: every GET answer passes its declared schema, every create reads back`, async () => {
    const probe = await probeData(documentPath(name));
    const checked = probe.gets.filter((g) => g.valid !== undefined);
    expect(checked.length, 'GET answers with a declared schema').toBeGreaterThan(0);
    expect(checked.filter((g) => !g.valid)).toEqual([]);
    expect(probe.creates.length).toBeGreaterThan(0);
    expect(probe.creates.filter((c) => c.readBack !== 200)).toEqual([]);
    expect(probe.unvalidated.filter((u) => !u.partly)).toEqual([]);
  });
}
