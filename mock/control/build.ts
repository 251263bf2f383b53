/**
 * The control API's builder: on or off (its `loopback` default follows the listener's address), its token
 * (configured, or generated at start-up), the journal it reads, and the two hooks the app calls — one to
 * hand it requests under /__gatecheck, one to record each answered request.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientAddress } from '../access/client-address.ts';
import { resolveSwitch } from '../access/exposure.ts';
import { NOT_FOUND } from '../http/problem.ts';
import { type Reply, send } from '../http/reply.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { DROPPED } from '../pipeline/faults.ts';
import { type ControlTargets, createControlApi } from './control-api.ts';
import { Journal } from './journal.ts';
import { CONTROL_PREFIX, type ControlSettings } from './settings.ts';
import { generateControlToken } from './token.ts';

export interface Control {
  /** The control API's bearer token, when it is on. */
  readonly token: string | undefined;
  /** Records one answered request in the journal (a no-op when the API is off: nobody could read it). */
  readonly record: (exchange: Exchange, reply: Reply) => void;
  /**
   * Requests under `/__gatecheck` are the control API's, whether it is on (answered by it) or off (404):
   * never routed to resources. Returns true when it took the request.
   */
  readonly intercept: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** `host`: the listener's address; undefined (an app built without a listener): `loopback` means off. */
export function controlEnabled(settings: ControlSettings, host: string | undefined): boolean {
  return resolveSwitch(settings.enabled, host);
}

/** What the control API acts on, besides its token and journal. */
export type ControlParts = Omit<ControlTargets, 'token' | 'journal'> & { readonly address: ClientAddress };

export function buildControl(settings: ControlSettings, on: boolean, parts: ControlParts): Control {
  if (!on) {
    return {
      token: undefined,
      record: () => undefined,
      intercept: (req, res) => {
        if (!isControlPath(req.url ?? '')) return false;
        send(res, NOT_FOUND, req.method === 'HEAD');
        return true;
      },
    };
  }
  const { address, ...targets } = parts;
  const token = settings.token ?? generateControlToken();
  const journal = new Journal(settings.journalSize);
  const handle = createControlApi({ ...targets, token, journal });
  return {
    token,
    record: (exchange, reply) => {
      const { req } = exchange;
      journal.record({
        at: exchange.now,
        method: exchange.method,
        path: exchange.path !== '' ? exchange.path : pathOf(req.url),
        status: reply === DROPPED ? 0 : reply.status,
        identity: exchange.identity?.id,
        client: exchange.clientKey ?? `ip:${exchange.client ?? address(req)}`,
        limitKey: exchange.limitKey,
        outcome: exchange.outcome,
        reason: exchange.outcomeReason,
      });
    },
    intercept: (req, res) => {
      const url = req.url ?? '';
      if (!isControlPath(url)) return false;
      const q = url.indexOf('?');
      handle(req, res, q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1));
      return true;
    },
  };
}

/** `/__gatecheck`, `/__gatecheck/…`, `/__gatecheck?…`; `/__gatecheckers` is an ordinary path. */
function isControlPath(url: string): boolean {
  if (!url.startsWith(CONTROL_PREFIX)) return false;
  const next = url.charCodeAt(CONTROL_PREFIX.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */;
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
