/**
 * The `loopback` default of the fault header and the control API: on while the mock listens on a loopback
 * address — only processes on this machine can reach it — and off when it is exposed to a network, unless
 * switched on explicitly. The app does not listen (mock/server.ts does), so the listener's host is passed in.
 */

import { isIP } from 'node:net';
import { parseAddress } from './cidr.ts';

/**
 * `true`: on; `false`: off; `loopback` (default of the fault header and the control API): on only while the
 * mock listens on a loopback address (127.0.0.0/8, ::1, localhost), where only local processes reach it.
 */
export type Switch = boolean | 'loopback';

/** 127.0.0.0/8, ::1 (and its IPv4-mapped form), and the name `localhost` (RFC 6761 §6.3). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 0) return false;
  const address = parseAddress(bare);
  return address !== undefined && address.range() === 'loopback';
}

/** `host` undefined: the app was built without a listener (tests calling createApp): `loopback` means off. */
export function resolveSwitch(value: Switch, host: string | undefined): boolean {
  return value === 'loopback' ? isLoopbackHost(host) : value;
}
