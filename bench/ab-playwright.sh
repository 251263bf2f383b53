#!/usr/bin/env bash
# Side by side: the fuzz phase (or the default run) of two checkouts, alternating, in one run — on a shared
# machine only figures taken this way compare (docs/performance.md).
#
#   bench/ab-playwright.sh <tree A> <tree B> [rounds=3] [fuzz|default] [extra playwright args…]
#
# fuzz:    npx playwright test specs/fuzz --reporter=json, read by tests/fuzz/fuzz-phase.ts (cases/s over the
#          span the fuzz tests ran), and the CPU time of the runner (the embedded mock) and of the workers.
# default: npx playwright test (the conformance run), its wall and CPU time.
# Each line: round, tree, load average before it, the figures; take medians per tree over the rounds.
set -euo pipefail
A=${1:?tree A}
B=${2:?tree B}
ROUNDS=${3:-3}
MODE=${4:-fuzz}
shift $(($# < 4 ? $# : 4))
OUT=$(mktemp -d)
CPU_HOOK="$OUT/cpu.cjs"
# Each Node process of the run appends its role and CPU ms when it exits (workers carry TEST_WORKER_INDEX).
cat >"$CPU_HOOK" <<'EOF'
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const role = process.env.TEST_WORKER_INDEX !== undefined ? 'worker' : 'runner';
  require('node:fs').appendFileSync(process.env.AB_CPU_FILE, `${role} ${Math.round((user + system) / 1000)}\n`);
});
EOF
for r in $(seq 1 "$ROUNDS"); do
  for tree in "$A" "$B"; do
    cd "$tree"
    load=$(cut -d' ' -f1 /proc/loadavg)
    cpu="$OUT/cpu-$r-$(basename "$tree").txt"
    json="$OUT/$r-$(basename "$tree").json"
    start=$(date +%s.%N)
    if [ "$MODE" = fuzz ]; then
      AB_CPU_FILE="$cpu" NODE_OPTIONS="--require $CPU_HOOK" npx playwright test specs/fuzz --reporter=json "$@" >"$json" 2>/dev/null || true
      phase=$(npx tsx tests/fuzz/fuzz-phase.ts "$json" | sed -E 's/.* ([0-9]+) cases, ([0-9]+) ms wall.* ([0-9]+) cases\/s.*/\1 cases \2 ms \3 cases\/s/')
    else
      AB_CPU_FILE="$cpu" NODE_OPTIONS="--require $CPU_HOOK" npx playwright test "$@" >"$json" 2>&1 || true
      phase=$(grep -E '^\s+[0-9]+ (passed|failed|skipped|flaky)' "$json" | tr -s ' \n' ' ')
    fi
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    workers=$(awk '$1=="worker"{s+=$2} END{print s+0}' "$cpu")
    runner=$(awk '$1=="runner"{s+=$2} END{print s+0}' "$cpu")
    printf 'round %s %s load %s | %s | wall %.1f s | cpu ms workers %s runner %s\n' \
      "$r" "$(basename "$tree")" "$load" "$phase" "$wall" "$workers" "$runner"
  done
done | tee "$OUT/log.txt"
echo "(raw reports in $OUT)"
