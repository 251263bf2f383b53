#!/usr/bin/env node
// The package's `bin`: the CLI is TypeScript, so register tsx's loader first, then hand over to cli/main.ts.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../cli/main.ts', import.meta.url).href);
