#!/usr/bin/env node
// The package's `gatecheck` command: the CLI (cli/main.ts).
import { runEntry } from './entry.js';

await runEntry('cli/main');
