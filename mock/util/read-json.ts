/**
 * Reads a JSON file the mock is configured with (its config, policy, data file), or refuses it with one
 * line naming the file: `<label> <path>: file not found`, or the parser's own message.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

export function readJsonFile(path: string, label: string, shown: string = path): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (err as Error).message;
    throw new ConfigError(`${label} ${shown}: ${reason}`);
  }
}
