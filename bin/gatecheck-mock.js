#!/usr/bin/env node
// The package's `gatecheck-mock` command: the mock's CLI (mock/cli.ts).
import { runEntry } from './entry.js';

await runEntry('mock/cli');
