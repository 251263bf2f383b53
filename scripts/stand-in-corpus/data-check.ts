/**
 * The stand-in's data half over init's corpus (issue #70): per document, how many GET answers pass their
 * declared schema, how many creates read back at their Location, which operations' bodies the mock does not
 * check — `npx tsx scripts/stand-in-corpus/data-check.ts [name…]` (data-probe.ts; only 127.0.0.1 is reached).
 */

import { probeData } from './data-probe.ts';
import { corpusDocuments, documentPath } from './documents.ts';

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : corpusDocuments();
const total = { gets: 0, valid: 0, checked: 0, creates: 0, readBack: 0, unvalidated: 0 };
const listed: string[] = [];
for (const name of names) {
  const probe = await probeData(documentPath(name));
  const checked = probe.gets.filter((g) => g.valid !== undefined);
  const valid = checked.filter((g) => g.valid);
  const back = probe.creates.filter((c) => c.readBack === 200);
  total.gets += probe.gets.length;
  total.checked += checked.length;
  total.valid += valid.length;
  total.creates += probe.creates.length;
  total.readBack += back.length;
  total.unvalidated += probe.unvalidated.filter((u) => !u.partly).length;
  console.log(
    `${name.padEnd(18)} GET ${probe.gets.length} (${probe.gets.filter((g) => g.status < 300).length} 2xx), ` +
      `schema-checked ${checked.length}, valid ${valid.length}; creates ${probe.creates.length}, read back ${back.length}; ` +
      `not validated ${probe.unvalidated.length}; start ${Math.round(probe.startMs)} ms`,
  );
  for (const g of probe.gets)
    if (g.valid === false || g.status >= 300) console.log(`    GET ${g.path} → ${g.status} ${g.error ?? ''}`);
  for (const c of probe.creates)
    if (c.readBack !== 200)
      console.log(`    ${c.operation} → ${c.status} ${c.location ?? '(no Location)'} → ${c.readBack}`);
  for (const u of probe.unvalidated)
    listed.push(`${name}: ${u.operation}: ${u.partly ? '(partly) ' : ''}${u.reason}`);
}
console.log(
  `\nall: GET ${total.gets}, schema-checked ${total.checked}, valid ${total.valid}; creates ${total.creates}, read back ${total.readBack}; not validated ${total.unvalidated}`,
);
for (const l of listed) console.log(`  ${l}`);
