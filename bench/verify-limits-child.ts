/**
 * One `gatecheck verify` for bench/verify-limits.ts, in a process of its own: the CLI's modules are loaded
 * first (start-up is not the statement's cost), then main() runs once; prints its exit code, wall time and
 * the process's peak resident memory (which includes Node's and the loader's own, shown by the baseline).
 */
import { main } from '../cli/app.ts';
import '../cli/attest/verify-command.ts';

const argv = process.argv.slice(2);
const lines: string[] = [];
const started = process.hrtime.bigint();
const code = await main(argv, { out: (t) => void lines.push(t), err: (t) => void lines.push(t) });
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const first = lines.join('').split('\n')[0] ?? '';
console.log(JSON.stringify({ code, ms, maxRssMB: process.resourceUsage().maxRSS / 1024, first }));
