import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'cidr-prefix-one-digit',
  layer: 'access control',
  bug: 'Reads only the first digit of a CIDR prefix length (`192.0.2.0/24` becomes `/2`), so the block list covers a quarter of the address space and refuses clients it was never meant to.',
  seenIn: 'Hand-written CIDR parsers that read `entry[slash + 1]` as the prefix length.',
  hooks: {
    settings: (config) => ({
      ...config,
      access: {
        ...config.access,
        blockedIps: config.access.blockedIps.map((range) => range.replace(/\/(\d)\d*$/, '/$1')),
      },
    }),
  },
});
