/** How a to-do line names operations: `GET /x`, a few examples of a group, a count with its noun. */
import type { Operation } from './operations.ts';

/** At most this many examples in a to-do line that names a group of operations. */
export const EXAMPLES = 3;

export const line = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`;
export const examples = (ops: readonly Operation[]) =>
  `${ops.slice(0, EXAMPLES).map(line).join(', ')}${ops.length > EXAMPLES ? `, … ${ops.length - EXAMPLES} more` : ''}`;
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The schemes an operation's alternatives send in Authorization, as an endpoint lists them. */
export const schemesOf = (o: Operation) => [...o.access.schemes];
