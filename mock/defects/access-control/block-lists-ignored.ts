import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'block-lists-ignored',
  layer: 'access control',
  bug: 'Never applies its address and country block lists: a blocked client with valid credentials is served.',
  seenIn:
    'Block lists configured under a key the middleware never reads; an IP filter mounted after the routes it guards.',
  hooks: {
    settings: (config) => ({ ...config, access: { ...config.access, blockedIps: [], blockedCountries: [] } }),
  },
});
