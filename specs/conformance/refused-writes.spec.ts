/**
 * A refused write changes nothing (seed §5 rule 1: identity is verified "before it processes the request";
 * §7 403; RFC 9110 §15.5.2: a 401's request "has not been applied"). The bug this catches stores first and
 * authenticates after: the client sees a 401 and the item is there.
 *
 * Parallel checks write to the same collection, so the check does not compare whole listings: each refused
 * POST carries a marker of its own (specs/kit/collection.ts) that must not show in the collection read back;
 * refused PUTs and DELETEs address an item this check created, which must read back unchanged, and present.
 */
import { randomBytes } from 'node:crypto';
import { replaceMethodOf } from '../declaration/deviations.ts';
import {
  type CollectionWriter,
  collectionWriter,
  itemPathFor,
  itemPathOf,
  markedIds,
  markedItem,
  readWithWriter,
  removeWithWriter,
  showsMarker,
} from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Refused, refusalOptions } from '../kit/guarded.ts';
import { type IdentityName, type Kit, unmet } from '../kit/kit.ts';
import { unknownKeyToken, wrongApikeys, wrongBasic } from '../kit/stimuli.ts';
import { refusedNoEffect } from '../rules/refusal.ts';
import { fail } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** RFC 9110 §15.5.1, §15.5.2, §15.5.4: the refusals judged here. */
const REFUSED = [400, 401, 403];
const refused = (ex: Exchange) => REFUSED.includes(ex.status);

/** Missing, wrong (each write scheme), malformed credentials, and a valid identity without write permission. */
async function refusals(kit: Kit, writer: CollectionWriter): Promise<Refused[]> {
  const out: Refused[] = [{ label: 'no credentials', authorization: undefined }];
  for (const scheme of writer.schemes) {
    if (scheme === 'bearer')
      out.push({
        label: 'a Bearer token signed by an unknown key',
        authorization: kit.credentials.bearer(await unknownKeyToken(kit)),
      });
    if (scheme === 'basic') {
      const [wrong] = wrongBasic(kit);
      if (wrong)
        out.push({ label: `Basic credentials of ${wrong.label}`, authorization: wrong.authorization });
    }
    if (scheme === 'apikey') {
      const [wrong] = wrongApikeys(kit);
      if (wrong) out.push({ label: `an API key: ${wrong.label}`, authorization: wrong.authorization });
    }
  }
  // RFC 9110 §11.4: spaces inside the credentials are neither token68 nor an auth-param list.
  const first = writer.schemes[0] ?? 'bearer';
  out.push({
    label: 'malformed credentials',
    authorization: kit.credentials.raw(first, 'gate check malformed'),
  });
  const writers = kit.writers();
  const other = (['admin', 'user'] as IdentityName[]).find((identity) => !writers.includes(identity));
  if (other !== undefined) {
    for (const scheme of writer.schemes) {
      const authorization = await kit.authorization(other, scheme);
      if (authorization === undefined) continue;
      out.push({
        label: `the ${other} identity, without write permission (${kit.credentials.name(scheme)})`,
        authorization,
        identity: other,
      });
      break;
    }
  }
  return out;
}

test(
  'POST, PUT and DELETE on the collection refused with 400, 401 or 403 (no, wrong or malformed credentials; no write permission) → read back, nothing created, changed or deleted',
  forRule(refusedNoEffect),
  async ({ kit }) => {
    const writer = await collectionWriter(kit);
    const nonce = `gatecheck-${randomBytes(5).toString('hex')}`;
    const send = (method: string, path: string, who: Refused, json?: unknown) =>
      kit.target.send(
        {
          method,
          path,
          headers: who.authorization === undefined ? {} : { Authorization: who.authorization },
          ...(json === undefined ? {} : { json }),
        },
        refusalOptions(who),
      );
    const own = await kit.send(
      { method: 'POST', path: writer.path, json: markedItem(writer.item, `${nonce}-own`) },
      writer.authorization,
    );
    const itemPath =
      itemPathOf(writer, own) ??
      unmet(`creating an item answered ${own.status} without an id (see success.200.post)`, [
        'success.200.post',
      ]);
    const litter: string[] = [itemPath];
    let judged = 0;
    /** Why the item this check created could not be read back, when it could not. */
    let unread: string | undefined;
    try {
      const tried = await refusals(kit, writer);
      // Refused POSTs, each with a marker of its own; an accepted one is another rule's failure (auth.401.*).
      const posts: { marker: string; ex: Exchange }[] = [];
      for (const [i, who] of tried.entries()) {
        const marker = `${nonce}-post-${i}`;
        const ex = await send('POST', writer.path, who, markedItem(writer.item, marker));
        const accepted = itemPathOf(writer, ex);
        if (accepted !== undefined) litter.push(accepted);
        if (refused(ex)) posts.push({ marker, ex });
      }
      const puts: { marker: string; ex: Exchange }[] = [];
      for (const [i, who] of tried.entries()) {
        const marker = `${nonce}-put-${i}`;
        // The method the profile declares for a replace (PUT, as the seed has it, or PATCH).
        const ex = await send(replaceMethodOf(kit.profile), itemPath, who, markedItem(writer.item, marker));
        if (refused(ex)) puts.push({ marker, ex });
      }
      judged += posts.length;
      const listing = await readWithWriter(kit, writer, writer.path);
      if (listing.status !== 200) unmet(`reading ${writer.path} back answered ${listing.status}, not 200`);
      for (const id of markedIds(listing.body, `${nonce}-post-`, writer.idField))
        litter.push(itemPathFor(writer, id));
      const created = posts.find((post) => showsMarker(listing.body, post.marker));
      if (created)
        fail(
          refusedNoEffect,
          created.ex,
          `no item created by a POST answered ${created.ex.status}`,
          `GET ${writer.path} with valid credentials lists the item this refused POST sent (marker ${created.marker})`,
        );
      // A refused PUT or DELETE is judged by the item this check created: only where that item reads back. Where
      // it does not, a 404 after a refused DELETE is no evidence of it (the write had no effect to begin with:
      // write.effect.read-back's finding, not this rule's).
      const item = await readWithWriter(kit, writer, itemPath);
      if (item.status !== 200)
        unread = `${itemPath}, created with ${own.status}, read back with ${item.status}`;
      else {
        judged += puts.length;
        const changed = puts.find((put) => showsMarker(item.body, put.marker));
        if (changed)
          fail(
            refusedNoEffect,
            changed.ex,
            `${itemPath} unchanged by a PUT answered ${changed.ex.status}`,
            `GET ${itemPath} with valid credentials shows the item this refused PUT sent (marker ${changed.marker})`,
          );
      }
      // Refused DELETEs, each followed by a read: the item must still be there.
      for (const who of item.status === 200 ? tried : []) {
        const ex = await send('DELETE', itemPath, who);
        if (!refused(ex)) continue;
        judged++;
        const after = await readWithWriter(kit, writer, itemPath);
        if (after.status === 404)
          fail(
            refusedNoEffect,
            ex,
            `${itemPath} still there after a DELETE answered ${ex.status}`,
            `GET ${itemPath} with valid credentials answers 404 after this refused DELETE`,
          );
      }
    } finally {
      for (const path of litter) await removeWithWriter(kit, writer, path);
    }
    if (judged === 0 && unread !== undefined)
      unmet(`${unread}: no refused PUT or DELETE could be judged (see write.effect.read-back)`, [
        'write.effect.read-back',
      ]);
    if (judged === 0)
      unmet('no write with refused credentials was answered 400, 401 or 403 (see auth.401.*, authz.403.*)', [
        'auth.401.*',
        'authz.403.*',
      ]);
  },
);
