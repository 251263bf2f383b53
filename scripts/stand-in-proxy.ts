/**
 * A stand-in for a target a published document describes: a small proxy on a free loopback port in front of
 * the bundled mock, mapping the document's paths to the mock's routes and, for a key the document sends with
 * its own word (`keyWord`, e.g. Okta's `SSWS`; `""` for a key sent alone), taking that word and refusing the mock's `Apikey` — so a run
 * that sends a key with the wrong word is refused as the real target would refuse it (RFC 9110 §11.4: an
 * unknown scheme is no credential). Used by scripts/init-stand-in.ts and tests/suite/apikey-scheme.test.ts.
 */
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRoutes {
  /** [pattern, replacement]: the first whose pattern matches the path maps it to a mock route (query kept). */
  readonly routes: readonly (readonly [string, string])[];
  /** The word the document's key is sent with; the stand-in refuses `Apikey`. */
  readonly keyWord?: string;
}

export interface RunningStandIn {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests by `METHOD pattern` (`unmapped` for a path no route maps). */
  readonly hits: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

export async function startStandIn(standIn: StandInRoutes, mockUrl: string): Promise<RunningStandIn> {
  const target = new URL(mockUrl);
  const hits = new Map<string, number>();
  const routes = standIn.routes.map(([from, to]) => [new RegExp(from), to] as const);
  const word = standIn.keyWord;
  const proxy = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const route = routes.find(([from]) => from.test(url.pathname));
    const mapped = route === undefined ? url.pathname : url.pathname.replace(route[0], route[1]);
    const key = `${req.method} ${route?.[0].source ?? 'unmapped'}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const headers = { ...req.headers, host: target.host };
    const auth = req.headers.authorization;
    if (word === '' && auth !== undefined) {
      // A key sent alone (apikeyScheme ""): whatever is not Bearer or Basic is a key, the mock's word put before it;
      // the mock's own word is one the target does not take.
      if (/^\s*apikey(\s|$)/i.test(auth))
        headers.authorization = auth.replace(/^(\s*)apikey/i, '$1Not-A-Scheme-Here');
      else if (!/^\s*(bearer|basic)(\s|$)/i.test(auth)) headers.authorization = `Apikey ${auth}`;
    } else if (word?.includes(' ') && auth !== undefined) {
      // A parameter form (`Token token=`: `Token token=<key>`, or `MediaBrowser Token`: quoted): the key taken
      // from the parameter and given to the mock as `Apikey <key>`; anything else keeps its word. RFC 9110 §11.2:
      // auth-param = token BWS "=" BWS ( token / quoted-string ), the name matched case-insensitively, either
      // notation taken (§5.6.3: BWS removed; §5.6.4: a quoted-pair stands for its character).
      const [scheme = '', param = ''] = word.split(' ');
      const name = param.replace(/=$/, '');
      const m = new RegExp(
        `^\\s*${scheme}\\s+${name}[ \\t]*=[ \\t]*(?:"((?:[^"\\\\]|\\\\.)*)"|([!#$%&'*+.^_\`|~0-9A-Za-z-]+))\\s*$`,
        'i',
      ).exec(auth);
      if (m !== null) headers.authorization = `Apikey ${m[1]?.replace(/\\(.)/g, '$1') ?? m[2]}`;
      else if (/^\s*apikey(\s|$)/i.test(auth))
        headers.authorization = auth.replace(/^(\s*)apikey/i, '$1Not-A-Scheme-Here');
    } else if (word !== undefined && auth !== undefined) {
      // The document's word for a key becomes the mock's; the mock's own word is one the target does not take.
      if (new RegExp(`^\\s*${word}(\\s|$)`, 'i').test(auth))
        headers.authorization = auth.replace(new RegExp(`^(\\s*)${word}`, 'i'), '$1Apikey');
      else if (/^\s*apikey(\s|$)/i.test(auth))
        headers.authorization = auth.replace(/^(\s*)apikey/i, '$1Not-A-Scheme-Here');
    }
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: `${mapped}${url.search}`,
        headers,
      },
      (answer) => {
        const out = { ...answer.headers };
        const challenge = out['www-authenticate'];
        if (word !== undefined && word !== '' && typeof challenge === 'string')
          out['www-authenticate'] = challenge.replace(/\bApikey\b/g, word.split(' ')[0] ?? word);
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      proxy.closeAllConnections();
      proxy.close();
      await once(proxy, 'close');
    },
  };
}
