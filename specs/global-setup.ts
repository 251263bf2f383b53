/**
 * Global setup of the conformance run: validates the profile before any request (a bad profile stops
 * the run with one line naming the field), then either points the run at BASE_URL or starts the
 * bundled mock in-process on a free port. Workers inherit the environment set here, so BASE_URL and
 * GATECHECK_PROFILE are how they learn the target — and NODE_EXTRA_CA_CERTS (a private CA) and the token
 * broker's address (specs/credentials/broker.ts) are how they reach it. The returned function is the global
 * teardown.
 */
import type { FullConfig } from '@playwright/test';
import { startTokenBroker, tokenSources } from './credentials/broker.ts';
import { DEFAULT_TIMEOUT_MS } from './lib/budget.ts';
import { ENV, ENV_EMBEDDED } from './lib/env.ts';
import { rememberSecrets } from './lib/secrets.ts';
import { checkTlsFiles, extraCaBundle, INSECURE_WARNING, nodeTlsOptions, runTls } from './lib/tls.ts';
import { checkJwtMaterial } from './lib/tokens.ts';
import { resolveRunTarget } from './profile/resolve.ts';

export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const run = resolveRunTarget(process.env);
  await checkJwtMaterial(run.profile.jwt);
  const tls = runTls(run.profile, process.env);
  checkTlsFiles(tls);
  if (tls.insecure) process.stderr.write(`${INSECURE_WARNING}\n`);
  // Node reads NODE_EXTRA_CA_CERTS when a process starts: set now, every worker (and Playwright's request
  // context in it) trusts the private CA, beside any extra CAs the environment already named.
  const caBundle = tls.caPath ? await extraCaBundle(tls.caPath, process.env.NODE_EXTRA_CA_CERTS) : undefined;
  if (caBundle) process.env.NODE_EXTRA_CA_CERTS = caBundle.path;
  process.env[ENV.profile] = run.profilePath;

  let closeMock: (() => Promise<void>) | undefined = caBundle?.remove;
  let baseUrl = run.baseUrl;
  if (baseUrl) {
    process.env[ENV.baseUrl] = baseUrl;
    delete process.env[ENV_EMBEDDED];
  } else {
    const { startMock } = await import('../mock/server.ts');
    const mock = await startMock({ port: 0, host: '127.0.0.1' });
    baseUrl = mock.url;
    process.env[ENV.baseUrl] = mock.url;
    process.env[ENV_EMBEDDED] = '1';
    closeMock = async () => {
      await mock.close();
      await caBundle?.remove();
    };
  }

  // Tokens obtained at run time: one broker per run, here unless the CLI already hosts one.
  if (tokenSources(run.profile).length > 0 && !process.env[ENV.tokenBroker]) {
    const broker = await startTokenBroker({
      profile: run.profile,
      baseUrl,
      tls: nodeTlsOptions(tls),
      timeoutMs: run.profile.budget?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    try {
      await broker.prime();
    } catch (error) {
      await broker.close();
      await closeMock?.();
      throw error;
    }
    rememberSecrets(broker.issued());
    Object.assign(process.env, broker.env);
    // Left open (unref'd) so the reporter can still ask it which tokens to redact when the run ends.
  }
  return closeMock;
}
