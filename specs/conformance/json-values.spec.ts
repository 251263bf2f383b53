/**
 * Any JSON value as an item (seed §7 400 and 500; RFC 8259): the writer POSTs the bodies of one fast-check
 * arbitrary (specs/fuzz/arbitraries/jsonItemBody.ts) — each kind's example on every run, then a few
 * generated ones from the run's seed — and the target answers 4xx or 2xx, never 5xx; a 2xx stores what was
 * sent. Items created are removed again. Stack traces in these answers are observed.no-stack's to judge.
 */

import { type JsonItemBody, jsonItemBody, jsonItemBodyExamples } from '../fuzz/arbitraries/jsonItemBody.ts';
import { DEFAULT_STRUCTURE_BYTES, structuresToLimit } from '../fuzz/arbitraries/jsonStructureToLimit.ts';
import {
  type CollectionWriter,
  collectionWriter,
  itemPathOf,
  readWithWriter,
  removeWithWriter,
} from '../kit/collection.ts';
import { forRule, test } from '../kit/fixtures.ts';
import { type Kit, unmet } from '../kit/kit.ts';
import { firstFinding } from '../kit/property.ts';
import { droppedMembers, storedDifference } from '../lib/stored-value.ts';
import { jsonValueNo5xx, jsonValueStored } from '../rules/json-values.ts';
import { fail } from '../verdict/verify.ts';
import type { Exchange } from '../wire/http.ts';

/** Generated bodies after the 11 examples; each costs a POST, and a read and a DELETE when it is stored. */
const GENERATED = 8;

/** POSTs the body as application/json with the writer's credential. */
function post(kit: Kit, writer: CollectionWriter, body: JsonItemBody): Promise<Exchange> {
  return kit.target.send({
    method: 'POST',
    path: writer.path,
    body: body.text,
    headers: { Authorization: writer.authorization, 'Content-Type': 'application/json' },
  });
}

const brief = (body: JsonItemBody) =>
  `${body.kind} (${body.text.length > 60 ? `${body.text.slice(0, 60)}…` : body.text})`;

test(
  'POST to the collection with any JSON value as the item (arrays, 1,000 deep, nesting, arrays, strings and members grown to the body limit, huge numbers, __proto__, duplicate names, lone surrogates, a BOM, generated values) → 4xx or 2xx, never 5xx',
  forRule(jsonValueNo5xx),
  async ({ kit }) => {
    const writer = await collectionWriter(kit);
    const finding = await firstFinding<JsonItemBody>({
      rule: jsonValueNo5xx,
      arbitrary: jsonItemBody(writer.item),
      // Each kind's example, then structures grown to the target's own body limit (the deepest that fits).
      examples: [
        ...jsonItemBodyExamples(writer.item),
        ...structuresToLimit(
          writer.item,
          kit.profile.endpoints.collection?.maxBodyBytes ?? DEFAULT_STRUCTURE_BYTES,
        ),
      ],
      generated: GENERATED,
      check: async (body) => {
        const ex = await post(kit, writer, body);
        const created = itemPathOf(writer, ex);
        if (created !== undefined) await removeWithWriter(kit, writer, created);
        if (ex.status < 500) return undefined;
        return { ex, expected: `4xx or 2xx for ${brief(body)}`, actual: `status ${ex.status}` };
      },
    });
    if (finding !== undefined)
      fail(jsonValueNo5xx, finding.ex, finding.expected, `${finding.actual} (fast-check ${finding.replay})`);
  },
);

test(
  'POST to the collection with any JSON object as the item, answered 2xx → read back, every member has the value sent',
  forRule(jsonValueStored),
  async ({ kit }) => {
    const writer = await collectionWriter(kit);
    // Does the target keep a member its items do not declare? If not (a validation whitelist), a member absent
    // from an item read back was dropped by design, not changed: reported, not judged.
    const control = await controlWrite(kit, writer);
    if (control === 'nothing stored')
      unmet(
        'a 2xx write of the sample item stored nothing of it (write.effect.read-back judges that): what the target keeps cannot be told',
      );
    const keepsUndeclared = control === 'keeps';
    const dropped = new Set<string>();
    const finding = await firstFinding<JsonItemBody>({
      rule: jsonValueStored,
      arbitrary: jsonItemBody(writer.item),
      // Only objects make items to read back; a generated body that is none passes untouched.
      examples: jsonItemBodyExamples(writer.item).filter((body) => body.stored !== undefined),
      generated: GENERATED,
      check: async (body) => {
        if (body.stored === undefined) return undefined;
        const ex = await post(kit, writer, body);
        const itemPath = itemPathOf(writer, ex);
        if (ex.status < 200 || ex.status > 299) return undefined;
        try {
          // The item as the target gives it back: read with valid credentials, else the POST's own answer.
          const read = itemPath === undefined ? undefined : await readWithWriter(kit, writer, itemPath);
          const source = read?.status === 200 ? read : ex;
          let stored: unknown;
          try {
            stored = JSON.parse(source.body);
          } catch {
            return undefined; // no JSON to compare: nothing to judge
          }
          const difference = storedDifference(body.stored, stored, keepsUndeclared ? 'judged' : 'ignored');
          if (!keepsUndeclared)
            for (const sent of body.stored.slice(0, 1))
              for (const name of droppedMembers(sent, stored)) dropped.add(name);
          if (difference === undefined) return undefined;
          // The POST is the evidence: its request carries the body that was not kept.
          return {
            ex,
            expected: `the item as sent for ${brief(body)}`,
            actual: `${source === ex ? 'the POST answered' : `GET ${itemPath} gives`} ${difference}`,
          };
        } finally {
          if (itemPath !== undefined) await removeWithWriter(kit, writer, itemPath);
        }
      },
    });
    if (dropped.size > 0)
      kit.observe(
        `the target drops members its items do not declare (a member it keeps is judged, one it drops is not): ${[
          ...dropped,
        ]
          .slice(0, 12)
          .map((name) => JSON.stringify(name))
          .join(', ')}${dropped.size > 12 ? ` and ${dropped.size - 12} more` : ''}`,
      );
    if (finding !== undefined)
      fail(jsonValueStored, finding.ex, finding.expected, `${finding.actual} (fast-check ${finding.replay})`);
  },
);

/**
 * What a control write shows of the target: it keeps a member its items do not declare, drops it (a validation
 * whitelist: the declared members read back, that one not), or stored nothing of what it was sent (the item is
 * 404, or reads back without its declared members) — no whitelist, a write without effect, which
 * write.effect.read-back judges; dropped members cannot be told from it.
 */
type Control = 'keeps' | 'drops' | 'nothing stored';

/** One write of the sample item with a member it does not declare, read back. */
async function controlWrite(kit: Kit, writer: CollectionWriter): Promise<Control> {
  const ex = await post(kit, writer, {
    kind: 'control',
    text: JSON.stringify({ ...writer.item, gatecheckUndeclared: 'gatecheck' }),
  });
  const itemPath = itemPathOf(writer, ex);
  if (itemPath === undefined) return 'keeps';
  try {
    const read = await readWithWriter(kit, writer, itemPath);
    // RFC 9110 §15.5.5, §15.5.11: the item a 2xx just created is not there.
    if (read.status === 404 || read.status === 410) return 'nothing stored';
    const source = read.status === 200 ? read : ex;
    const item = JSON.parse(source.body) as object;
    if (Object.hasOwn(item, 'gatecheckUndeclared')) return 'keeps';
    return droppedMembers(writer.item, item).length === 0 ? 'drops' : 'nothing stored';
  } catch {
    return 'keeps';
  } finally {
    await removeWithWriter(kit, writer, itemPath);
  }
}
