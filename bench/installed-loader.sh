#!/usr/bin/env bash
# The installed package's run with and without Playwright's TypeScript loader, alternating, in one run (on a
# shared machine only figures taken this way compare: docs/performance.md). `PW_DISABLE_TS_ESM=` (set, empty)
# keeps the loader on in the runner and the workers as before shared/typescript-loader.ts; unset, the CLI and
# the compiled config turn it off.
#
#   bench/installed-loader.sh <tarball from npm pack> [rounds=5] [gatecheck args…]
#
# Each line: round, loader on/off, load average before it, the run's result line, its wall, and the CPU time
# of the runner and of the workers (each Node process appends its role and CPU ms at exit).
set -euo pipefail
TARBALL=$(realpath "${1:?tarball}")
ROUNDS=${2:-5}
shift $(($# < 2 ? $# : 2))
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
printf '{ "name": "bench-consumer", "private": true, "type": "module" }\n' >package.json
npm install --silent --no-audit --no-fund --prefer-offline "$TARBALL" >/dev/null
cat >cpu.cjs <<'HOOK'
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const entry = process.argv[1] ?? '';
  const role = /worker/i.test(entry) ? 'worker' : /cli\.js$/.test(entry) ? 'runner' : 'other';
  require('node:fs').appendFileSync(process.env.AB_CPU_FILE, `${role} ${Math.round((user + system) / 1000)}\n`);
});
HOOK
for r in $(seq 1 "$ROUNDS"); do
  for loader in on off; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    cpu="$WORK/cpu-$r-$loader.txt"
    : >"$cpu"
    start=$(date +%s.%N)
    if [ "$loader" = on ]; then
      PW_DISABLE_TS_ESM= AB_CPU_FILE="$cpu" NODE_OPTIONS="--require $WORK/cpu.cjs" \
        node node_modules/gatecheck/bin/gatecheck.js --report-dir "$WORK/out" "$@" >"$WORK/out.txt" 2>&1 || true
    else
      AB_CPU_FILE="$cpu" NODE_OPTIONS="--require $WORK/cpu.cjs" \
        node node_modules/gatecheck/bin/gatecheck.js --report-dir "$WORK/out" "$@" >"$WORK/out.txt" 2>&1 || true
    fi
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    result=$(grep -E '^\s+[0-9]+ (passed|failed)' "$WORK/out.txt" | tr -s ' \n' ' ')
    workers=$(awk '$1=="worker"{s+=$2} END{print s+0}' "$cpu")
    runner=$(awk '$1=="runner"{s+=$2} END{print s+0}' "$cpu")
    all=$(awk '{s+=$2} END{print s+0}' "$cpu")
    printf 'round %s loader %-3s load %s |%s| wall %.2f s | cpu ms runner %s workers %s all %s\n' \
      "$r" "$loader" "$load" "$result" "$wall" "$runner" "$workers" "$all"
  done
done
