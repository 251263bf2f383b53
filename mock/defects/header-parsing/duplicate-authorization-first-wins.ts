import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'duplicate-authorization-first-wins',
  layer: 'header parsing',
  bug: 'Uses the first of two Authorization field lines instead of refusing the ambiguous request (a SHOULD: RFC 9110 §5.3 forbids senders to send two, and no RFC obliges a recipient to refuse them).',
  seenIn:
    "Node's http module keeps the first Authorization line and silently drops the others; most servers built on it inherit that.",
  hooks: {
    authenticator: () => ({
      before: (request) => {
        if (request.values.length > 1) request.values = request.values.slice(0, 1);
        return undefined;
      },
    }),
  },
});
