import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'host-first-wins',
  layer: 'header parsing',
  bug: 'Takes the first of two Host field lines, and any Host value, instead of answering 400 (RFC 9112 §3.2: a server MUST answer 400 to more than one Host line or an invalid Host value).',
  seenIn:
    "Node's http server keeps the first Host line and takes any value (seen on Node 20); what an app built on it (Express, Fastify) reads is that one value, unless it checks the Host itself.",
  hooks: {
    settings: (config) => ({ ...config, server: { ...config.server, strictHost: false } }),
  },
});
