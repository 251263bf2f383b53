import { randomUUID } from 'node:crypto';
import type { ResourceEngine } from '../../resources/types.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'writes-no-effect',
  layer: 'success statuses',
  bug: 'Answers every write from the request and never commits it: POST answers 200 with the item and a new id but stores nothing, PUT and PATCH answer the changed item and leave the stored one as it was, DELETE answers 200 and the item stays.',
  seenIn:
    'A write path run in a transaction that is never committed (autocommit off, the commit left out, or rolled back by a later error swallowed), or writes to a per-request copy of the data; the handler answers from what it was sent.',
  hooks: {
    engine: (real): ResourceEngine => ({
      get version() {
        return real.version;
      },
      kindOf: (name) => real.kindOf(name),
      list: (name, query) => real.list(name, query),
      read: (name, id, query) => real.read(name, id, query),
      close: () => real.close(),
      ...(real.reset === undefined ? {} : { reset: () => (real.reset as () => Promise<void>)() }),
      // The answer a committed write would give; the data untouched.
      create: async (name, body) =>
        real.kindOf(name) === 'collection' ? { ...body, id: randomUUID().slice(0, 4) } : undefined,
      replace: async (name, id, body) => {
        if (id === undefined) return real.kindOf(name) === 'singular' ? body : undefined;
        return real.read(name, id, '') === undefined ? undefined : { ...body, id };
      },
      patch: async (name, id, body) => {
        if (id === undefined) return real.kindOf(name) === 'singular' ? body : undefined;
        const item = real.read(name, id, '');
        return item === undefined ? undefined : { ...item, ...body, id };
      },
      remove: async (name, id) => real.read(name, id, ''),
    }),
  },
});
