/**
 * Control API settings (config file `control`, CLI `--control`, `--control-token`). The API lives under
 * `/__gatecheck/`, a prefix never routed to resources.
 */

import type { Switch } from '../access/exposure.ts';

export interface ControlSettings {
  /** `loopback` (default): on only while the mock listens on a loopback address. */
  readonly enabled: Switch;
  /**
   * The control API's own bearer token. Unset: a random one is generated at start-up and printed in the
   * CLI banner (and readable as `RunningMock.control.token` in-process).
   */
  readonly token: string | undefined;
  /** Requests the journal keeps (a ring buffer: the oldest is overwritten). */
  readonly journalSize: number;
}

export const CONTROL_PREFIX = '/__gatecheck';

export const DEFAULT_CONTROL: ControlSettings = { enabled: 'loopback', token: undefined, journalSize: 1000 };

export interface ControlFile {
  readonly enabled?: Switch;
  readonly token?: string;
  readonly journalSize?: number;
}

export function mergeControl(base: ControlSettings, file: ControlFile | undefined): ControlSettings {
  if (file === undefined) return base;
  return {
    enabled: file.enabled ?? base.enabled,
    token: file.token ?? base.token,
    journalSize: file.journalSize ?? base.journalSize,
  };
}
