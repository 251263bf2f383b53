/**
 * conformance.html in a real browser: Debian's Chromium through Playwright's `executablePath` (no browser
 * download). It renders from disk, the verdict and the status × rule matrix are visible, nothing is
 * fetched, and a screenshot of each page is attached to the test.
 */

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, expect, test } from '@playwright/test';
import { renderHtml } from '../../specs/report/html.ts';
import { sampleReport } from './sample-report.ts';

const CHROMIUM = '/usr/bin/chromium';

test.describe('conformance.html in Chromium', () => {
  test.skip(
    !existsSync(CHROMIUM),
    `Debian's Chromium is not at ${CHROMIUM}; install it (apt-get install chromium) to run the browser check`,
  );

  let browser: Browser;
  let dir: string;
  test.beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-html-'));
  });
  test.afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const conformant of [false, true]) {
    const name = conformant ? 'conformant' : 'not conformant';
    test(`a ${name} report renders: verdict at the top, counts, matrix, failures; no request leaves the page`, async () => {
      const report = sampleReport(conformant);
      const file = path.join(dir, `${conformant ? 'ok' : 'ko'}.html`);
      await writeFile(file, renderHtml(report));

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(file).href);

      const verdict = page.locator('#verdict');
      await expect(verdict).toBeVisible();
      await expect(verdict).toHaveAttribute('data-conformant', String(conformant));
      // The "conformant" sample skipped MUST rules: it reads, and is coloured, as partial (amber, not green).
      await expect(verdict.locator('.statement')).toHaveText(
        conformant ? /^Partial: no rule fails, but 2 of 6 MUST rules/ : 'Not conformant: 1 MUST rule fails',
      );
      await expect(verdict).toHaveAttribute('data-outcome', conformant ? 'partial' : 'not-conformant');
      await expect(verdict).toHaveCSS(
        'background-color',
        conformant ? 'rgb(154, 103, 0)' : 'rgb(207, 34, 46)',
      );
      await expect(page).toHaveTitle(new RegExp(`^${conformant ? 'Partial' : 'Not conformant'} · `));
      // The verdict is the first thing on the page: above the fold, before the matrix.
      const box = await verdict.boundingBox();
      expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(200);

      await expect(page.locator('#counts')).toBeVisible();
      await expect(page.locator('#counts tbody tr').first()).toContainText('MUST');

      const matrix = page.locator('#matrix');
      await expect(matrix).toBeVisible();
      await expect(matrix.locator('tbody tr')).toHaveCount(report.rules.length);
      for (const status of ['200', '401', '403', '405', '429', '500']) {
        await expect(matrix.locator('thead th', { hasText: status })).toBeVisible();
      }
      const row = matrix.locator('tbody tr', { hasText: 'authz.403.lacking-role' });
      await expect(row.locator(`td.c.v-${conformant ? 'pass' : 'fail'}`)).toHaveCount(1);

      const failures = page.locator('#failures');
      if (!conformant) {
        const failure = failures.locator('article[data-verdict="fail"]');
        await expect(failure).toBeVisible();
        await expect(failure).toContainText('status 403 or 404 for the user identity with Bearer');
        await expect(failure.locator('pre.replay')).toContainText(
          "curl -i -sS -X GET 'http://127.0.0.1:8080/admin'",
        );
        // A response body is shown as text, never interpreted as markup.
        await expect(failure).toContainText('<script>alert(1)</script>');
      }
      await expect(failures.locator('article[data-verdict="warn"]')).toContainText(
        'bearer.challenge.missing-no-error',
      );

      await test.info().attach(`conformance.html (${name})`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: 'image/png',
      });
      expect(requested).toEqual([pathToFileURL(file).href]);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
