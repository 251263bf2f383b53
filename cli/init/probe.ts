/**
 * `gatecheck init --probe URL`: a few polite requests that confirm what the document says. Each of at most
 * PROBE_LIMIT GET operations without path parameters is asked once, without credentials, one after the
 * other with a timeout; every request is printed. A public operation should not answer 401; a protected one
 * should answer 401 with a WWW-Authenticate challenge (RFC 9110 §11.6.1, §15.5.2).
 */
export const PROBE_LIMIT = 8;
const TIMEOUT_MS = 5_000;

export interface ProbeTarget {
  readonly path: string;
  readonly public: boolean;
}

export interface ProbeLine {
  readonly request: string;
  readonly status: number | undefined;
  readonly challenge: string | undefined;
  /** Where the target and its document disagree, else undefined. */
  readonly disagreement: string | undefined;
}

export async function probe(baseUrl: string, targets: readonly ProbeTarget[]): Promise<ProbeLine[]> {
  const lines: ProbeLine[] = [];
  for (const target of targets.slice(0, PROBE_LIMIT)) {
    const url = new URL(target.path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const request = `GET ${url.pathname} (no credentials)`;
    let status: number | undefined;
    let challenge: string | undefined;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
      status = response.status;
      challenge = response.headers.get('www-authenticate') ?? undefined;
      await response.body?.cancel();
    } catch (error) {
      lines.push({ request, status, challenge, disagreement: `no answer (${(error as Error).name})` });
      continue;
    }
    let disagreement: string | undefined;
    if (target.public && status === 401) disagreement = 'the document says public, the target answers 401';
    else if (!target.public && status !== 401)
      disagreement = `the document requires credentials, the target answers ${status} without them`;
    else if (!target.public && challenge === undefined)
      disagreement = '401 without a WWW-Authenticate challenge';
    lines.push({ request, status, challenge, disagreement });
  }
  return lines;
}
