/**
 * The CLI as a function: argv in, exit code out. main.ts is the process entry; tests call this in-process
 * for the cases that never reach Playwright (help, version, usage errors).
 */

import { createRequire } from 'node:module';
import { loadProfile, ProfileError } from '../specs/profile/load.ts';
import { catalogueJson, loadCatalogue } from '../specs/report/catalogue-source.ts';
import { REPORT_SCHEMA_VERSION } from '../specs/report/model.ts';
import { suiteVersion } from '../specs/report/suite-version.ts';
import { parseCommand } from './args.ts';
import { EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { helpText } from './help.ts';
import type { Io } from './outcome.ts';
import { renderRulesMarkdown, renderRulesText } from './rules.ts';
import { mergeShards, runSuite } from './run.ts';

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

async function versionText(): Promise<string> {
  const playwright = (createRequire(import.meta.url)('@playwright/test/package.json') as { version: string })
    .version;
  let catalogue = 'unavailable';
  try {
    const loaded = await loadCatalogue();
    catalogue = `${loaded.version} (${loaded.rules.length} rules)`;
  } catch {
    // --version must answer even when the catalogue cannot load.
  }
  return `gatecheck ${suiteVersion()}\ncatalogue ${catalogue}\nreport schema ${REPORT_SCHEMA_VERSION}\nplaywright ${playwright}\n`;
}

export async function main(argv: readonly string[], io: Io = processIo): Promise<ExitCode> {
  try {
    const command = parseCommand(argv);
    switch (command.kind) {
      case 'help':
        io.out(helpText());
        return EXIT.conformant;
      case 'version':
        io.out(await versionText());
        return EXIT.conformant;
      case 'list-rules':
        // A profile named beside it is read and checked: one that cannot be is exit 2, not ignored.
        if (command.profile) loadProfile(command.profile);
        io.out(renderRulesText(await loadCatalogue()));
        return EXIT.conformant;
      case 'check': {
        const { runCheck } = await import('./check.ts');
        return await runCheck(command.options, io);
      }
      case 'rules': {
        const catalogue = await loadCatalogue();
        if (command.format === 'json') io.out(catalogueJson(catalogue));
        else
          io.out(command.format === 'markdown' ? renderRulesMarkdown(catalogue) : renderRulesText(catalogue));
        return EXIT.conformant;
      }
      case 'run':
        return await runSuite(command.options, io);
      case 'merge':
        return await mergeShards(command.blobDir, command.options, io);
      case 'init': {
        // Loaded only here: the OpenAPI parser it needs would cost every run its start-up time.
        const { runInit } = await import('./init/command.ts');
        await runInit(command.options, io);
        return EXIT.conformant;
      }
      case 'verify': {
        // Loaded only here, like init: a run without --sign-key never needs the attestation code.
        const { runVerify } = await import('./attest/verify-command.ts');
        return await runVerify(command.options, io);
      }
      case 'keygen': {
        const { runKeygen } = await import('./attest/keygen-command.ts');
        return await runKeygen(command.options, io);
      }
      case 'gate': {
        const { runGate } = await import('./gate-command.ts');
        return await runGate(command.report, io);
      }
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ProfileError) {
      io.err(`gatecheck: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}
