import { problem } from '../../http/problem.ts';
import { defineDefect } from '../unit/define.ts';

/** The largest int32: the id column's type. */
const INT32_MAX = 2n ** 31n - 1n;

export default defineDefect({
  name: 'item-id-int32-500',
  layer: 'routing',
  bug: 'Parses an item id into the 32-bit integer its database column holds and does not catch the overflow: an id past 2^31 − 1 (or below −2^31) answers 500 where an id the collection does not hold is a 404 (seed §7).',
  seenIn:
    '`ParseIntPipe` in front of an `int4` primary key (PostgreSQL: "value out of range for type integer"), `Integer.parseInt(id)` in a Spring controller without a `NumberFormatException` handler.',
  hooks: {
    reply: () => {
      const crashed = problem('internal-error', 'The server met an unexpected condition.');
      return {
        rewrite: (reply, exchange) => {
          const id = exchange.match?.id;
          if (exchange.rule?.operation !== 'read' || id === undefined || !/^[+-]?\d+$/.test(id)) return reply;
          const value = BigInt(id);
          return value > INT32_MAX || value < -INT32_MAX - 1n ? crashed : reply;
        },
      };
    },
  },
});
