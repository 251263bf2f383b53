/**
 * `npm run docs:defects`: writes what the defect declarations decide — the tables of docs/defects.md and the
 * `defects` enum of fixtures/schemas/mock-config.schema.json (tests/mutation/harness/defect-docs.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { withDefectEnum, withDefectTables } from '../tests/mutation/harness/defect-docs.ts';

const DOC = new URL('../docs/defects.md', import.meta.url);
const SCHEMA = new URL('../fixtures/schemas/mock-config.schema.json', import.meta.url);

await writeFile(DOC, withDefectTables(await readFile(DOC, 'utf8')));
await writeFile(SCHEMA, withDefectEnum(await readFile(SCHEMA, 'utf8')));
