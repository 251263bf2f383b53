// The oldest Node the package admits (package.json "engines": ">=20.19"), checked before anything else
// loads: an older Node gets one line and exit 2, not a stack from deep inside (issue #40).
import { readFileSync } from 'node:fs';

/** `>=20.19` or `>=20.19.0` → [20, 19, 0]. */
function floorOf(range) {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

export function refuseOlderNode(program) {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const range = manifest.engines?.node ?? '';
  const floor = floorOf(range);
  if (!floor) return;
  const running = process.versions.node.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if (running[i] > floor[i]) return;
    if (running[i] < floor[i]) {
      process.stderr.write(
        `${program}: needs Node ${range.replace(/^>=\s*/, '')} or later (package.json "engines": "${range}"); this is Node ${process.versions.node}\n`,
      );
      process.exit(2);
    }
  }
}
