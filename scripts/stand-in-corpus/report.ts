/**
 * The reporter of a run over several corpus documents (run.config.ts): one conformance.json per document, built
 * by the conformance reporter's own buildReport (specs/report/build.ts) from that document's two projects alone
 * — its checks and its observer verdicts — so each document's rule verdicts are aggregated as a `gatecheck`
 * run of it alone aggregates them. The product's reporter writes one report for the whole run (docs/ci.md
 * "Several targets in one Playwright run"); here the facts it gathers from the environment come from the
 * manifest instead.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import { DEFAULT_SEED, ENV } from '../../shared/env.ts';
import { profileSecrets } from '../../shared/secrets.ts';
import { issuedTokens } from '../../specs/credentials/client.ts';
import { buildReport } from '../../specs/report/build.ts';
import { loadCatalogue } from '../../specs/report/catalogue-source.ts';
import { collectTest, stripAnsi } from '../../specs/report/collect.ts';
import { Scrubber } from '../../specs/report/scrub.ts';
import { suiteVersion } from '../../specs/report/suite-version.ts';
import { REPORT_FILES } from '../../specs/report/write.ts';
import { type DocumentTarget, OBSERVERS_SUFFIX, readManifest } from './manifest.ts';

export default class DocumentReports implements Reporter {
  #config: FullConfig | undefined;
  #suite: Suite | undefined;
  readonly #errors: string[] = [];

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.#config = config;
    this.#suite = suite;
  }

  onError(error: TestError): void {
    this.#errors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  async onEnd(result: FullResult): Promise<void> {
    const { targets, reportDir } = readManifest();
    const catalogue = await loadCatalogue();
    // The broker's tokens are secrets of the document whose profile obtains them (run.ts: one per run).
    const tokens = await issuedTokens();
    for (const target of targets) {
      const dir = path.join(reportDir, target.name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, REPORT_FILES.json),
        `${JSON.stringify(this.#report(target, catalogue, tokens, result), null, 2)}\n`,
      );
    }
  }

  #report(
    target: DocumentTarget,
    catalogue: Awaited<ReturnType<typeof loadCatalogue>>,
    tokens: readonly string[],
    result: FullResult,
  ) {
    const projects = new Set([target.name, `${target.name}${OBSERVERS_SUFFIX}`]);
    const rootDir = this.#config?.rootDir ?? process.cwd();
    const tests = (this.#suite?.allTests() ?? [])
      .filter((t) => projects.has(t.parent.project()?.name ?? ''))
      .map((t) => collectTest(t, rootDir));
    const raw = JSON.parse(readFileSync(target.profile, 'utf8')) as unknown;
    const env = { ...process.env, ...target.env };
    return buildReport({
      catalogue,
      tests,
      suiteVersion: suiteVersion(),
      playwrightVersion: this.#config?.version ?? 'unknown',
      baseUrl: target.url,
      bundledMock: false,
      profile: { raw, source: path.basename(target.profile) },
      run: {
        startedAt: result.startTime,
        durationMs: result.duration,
        seed: DEFAULT_SEED,
        budget: target.budget,
        strict: false,
        shard: null,
        merged: false,
        ...(env[ENV.filter] ? { filter: env[ENV.filter] } : {}),
        status: result.status,
        errors: this.#errors,
      },
      scrub: new Scrubber([...profileSecrets(raw, env), ...tokens]),
    });
  }
}
