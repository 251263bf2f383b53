/**
 * Item ids past every common integer type, and the path spellings of an item path (specs/rules/not-found.ts
 * route.item-id.boundaries): the writer creates an item, then reads ids the target may not be able to hold
 * (specs/fuzz/grammar/item-ids.ts) and spellings of the item's own path (specs/fuzz/arbitraries/pathSpelling.ts)
 * with valid credentials — never a 5xx, never another item. The item is removed again.
 */

import { pathSpellingExamples } from '../fuzz/arbitraries/pathSpelling.ts';
import { ITEM_ID_BOUNDARIES, sameItem } from '../fuzz/grammar/item-ids.ts';
import { collectionWriter, itemPathOf, readWithWriter, removeWithWriter } from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { itemId, unmet } from '../kit/kit.ts';
import { itemIdBoundaries } from '../rules/not-found.ts';
import { expectRule } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

test(
  'GET of item ids at and past 2^31, 2^53, 2^63, 2^64, negative, zero-padded, signed, with an exponent, non-numeric, and of spellings of an item path → never 5xx, never another item',
  forRule(itemIdBoundaries),
  async ({ kit }) => {
    const writer = await collectionWriter(kit);
    const created = await kit.send(
      { method: 'POST', path: writer.path, json: writer.item },
      writer.authorization,
    );
    const itemPath = itemPathOf(writer, created);
    if (itemPath === undefined)
      unmet(
        `the writer's POST of the sample item answered ${created.status} without an item id (see success.200.post)`,
        ['success.200.post'],
      );
    const ownId = itemId(created, writer.idField) as string;
    const judge = (ex: Exchange, asked: string, label: string) => {
      const other = ex.status >= 200 && ex.status < 300 ? itemId(ex, writer.idField) : undefined;
      expectRule(
        ex.status < 500 && (other === undefined || sameItem(asked, other)),
        itemIdBoundaries,
        ex,
        `an answer below 500 and no other item than ${JSON.stringify(asked)} for ${label}`,
        ex.status >= 500
          ? `status ${ex.status}`
          : `status ${ex.status} carrying the item ${JSON.stringify(other)}`,
      );
    };
    try {
      for (const probe of ITEM_ID_BOUNDARIES) {
        const ex = await readWithWriter(kit, writer, `${writer.path}/${probe.id}`);
        judge(ex, probe.id, `the id ${probe.label}`);
      }
      for (const spelling of pathSpellingExamples(itemPath)) {
        const ex = await readWithWriter(kit, writer, spelling.path);
        judge(ex, ownId, `${spelling.kind} of the item path`);
      }
    } finally {
      await removeWithWriter(kit, writer, itemPath);
    }
  },
);
