/**
 * Writes read back (specs/rules/write-effect.ts; seed §4 rule 2, RFC 9110 §9.3.4, §9.3.5): a create, a replace
 * and a delete of one item of the writable collection, each 2xx followed by a read of the item with the
 * writer's credential, which must show what the write did. A 202 promises nothing yet (RFC 9110 §15.3.3).
 */
import { randomUUID } from 'node:crypto';
import { replaceMethodOf } from '../declaration/deviations.ts';
import { collectionWriter, itemPathOf, markedItem, removeWithWriter } from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { unmet } from '../kit/kit.ts';
import { failReadBack, readShows } from '../kit/read-back.ts';
import { writeEffectReadBack as rule } from '../rules/write-effect.ts';
import type { Exchange } from '../wire/http.ts';

/** A 2xx that says the write completed; 202 says it has not yet (RFC 9110 §15.3.3). */
const completed = (ex: Exchange): boolean => ex.status >= 200 && ex.status <= 299 && ex.status !== 202;

test(
  'POST a marked item, PUT it with another mark, DELETE it — each 2xx → a read of the item shows it: the item as sent, the new values, then 404 or 410',
  forRule(rule),
  async ({ kit }) => {
    const w = await collectionWriter(kit);
    const send = (method: string, path: string, json?: unknown) =>
      kit.target.send({
        method,
        path,
        ...(json === undefined ? {} : { json }),
        headers: { Authorization: w.authorization },
      });
    const read = (path: string) => send('GET', path);

    const first = markedItem(w.item, `gatecheck-${randomUUID().slice(0, 8)}`);
    const create = await send('POST', w.path, first);
    if (!completed(create)) unmet(`creating an item answered ${create.status} (see success.200.post)`);
    const itemPath =
      itemPathOf(w, create) ?? unmet(`the POST response carries no "${w.idField}" to address the new item`);
    let removed = false;
    try {
      const afterCreate = await read(itemPath);
      // RFC 9110 §15.5.6: the item path reads nothing (405): no read to judge a write by — not a write's failure.
      if (afterCreate.status === 405)
        unmet(`GET ${itemPath} answered 405: the target offers no read of an item to check its writes by`);
      const created = readShows(afterCreate, first, w.idField);
      if (created !== undefined)
        failReadBack(rule, create, afterCreate, 'the created item as sent', `the read gives ${created}`);

      const second = markedItem(w.item, `gatecheck-${randomUUID().slice(0, 8)}`);
      // The method the profile declares for a replace (PUT, as the seed has it, or PATCH: issue #66).
      const replace = await send(replaceMethodOf(kit.profile), itemPath, second);
      if (completed(replace)) {
        const afterReplace = await read(itemPath);
        const replaced = readShows(afterReplace, second, w.idField);
        if (replaced !== undefined)
          failReadBack(
            rule,
            replace,
            afterReplace,
            'the item with the new values',
            `the read gives ${replaced}`,
          );
      }

      const remove = await send('DELETE', itemPath);
      if (completed(remove)) {
        removed = true;
        const afterDelete = await read(itemPath);
        // RFC 9110 §15.5.5 404, §15.5.11 410: the item is gone.
        if (afterDelete.status !== 404 && afterDelete.status !== 410)
          failReadBack(rule, remove, afterDelete, 'status 404 or 410', `status ${afterDelete.status}`);
      }
    } finally {
      if (!removed) await removeWithWriter(kit, w, itemPath);
    }
  },
);
