#!/usr/bin/env bash
# The engine's cost per message, counted rather than timed (issue 27 item 6): CI's guard
# against a slower engine.
#   bash scripts/bench-instructions.sh [TOPOLOGY...]     (default: all four)
#
# Runs `delaylab bench --messages 200000 --runs 1 --topology T` under valgrind's callgrind
# and divides the instructions the whole process executed (start-up, the floor before and
# after, the engine) by the messages. The count is the same on every run of one binary
# (four runs of the plugin topology, 2026-12-07: within 1,300 of 1.11 billion), so a
# budget 10 % over today's catches a slip of 10 % whatever else the host runs.
#
# Why not the CPU-time ratio to the floor, which `delaylab bench` prints: the floor (a
# binary heap of 16 MB) fits in this host's 32 MB L3 cache when the host is quiet, and the
# engine's 175-225 MB of waiting messages do not. On a quiet host (2026-12-07, 40 best-of-5
# attempts) the ratio was dlx-per-message 2.13-2.36x, dlx-per-queue 2.30-2.61x, the plugin
# 2.70-2.92x, the 4.4 quorum queue 2.54-2.71x; when other tenants evict the cache, the
# floor slows and the same binary gave 1.2-2.0x. The cache is the cause: on the quiet host
# the floor took 137 ns a message at 250,000 (a 4 MB heap), 197 at 1,000,000 (16 MB) and
# 296 at 3,000,000 (48 MB, over the L3), while the engine's stayed at 462 (dlx-per-message:
# 3.34x, 2.35x, 1.56x). A bound on that ratio failed an
# unchanged engine on a quiet host and passed a slower one on a busy host. The ratio is
# still measured and printed by scripts/test.sh (issue 27's 2x and 1.5x are not met on a
# quiet host); this count is what fails the build.
#
# Budgets: instructions per message on 2026-12-07 (after the publish was handed to the
# engine by reference, not copied out of its command), plus 10 %. An engine change that adds work on purpose measures
# again (this script prints the counts) and raises its budget in the same commit, saying
# why; one that removes work lowers it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

MESSAGES=200000
declare -A MEASURED=(
  [dlx-per-message]=5457
  [dlx-per-queue]=5707
  [plugin]=5485
  [qq-delivery-time]=5337
)
SLACK_PERCENT=10
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/delaylab"

command -v valgrind >/dev/null || { echo "bench-instructions: valgrind not found (scripts/setup.sh installs it)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "bench-instructions: $BIN not built (cargo build --release)" >&2; exit 1; }

topologies=("$@")
[ "${#topologies[@]}" -gt 0 ] || topologies=(dlx-per-message dlx-per-queue plugin qq-delivery-time)
status=0
for t in "${topologies[@]}"; do
  measured="${MEASURED[$t]:-}"
  [ -n "$measured" ] || { echo "bench-instructions: no budget for topology '$t' (known: ${!MEASURED[*]})" >&2; exit 2; }
  budget=$((measured * (100 + SLACK_PERCENT) / 100))
  log="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" bench --messages "$MESSAGES" --runs 1 --topology "$t" 2>&1)" || {
    echo "$log" >&2
    echo "bench-instructions: $t: the bench failed under valgrind" >&2
    exit 1
  }
  total="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$log")"
  [ -n "$total" ] || { echo "$log" >&2; echo "bench-instructions: $t: no instruction count in valgrind's output" >&2; exit 1; }
  per=$((total / MESSAGES))
  if [ "$per" -le "$budget" ]; then
    printf '%-17s %6d instructions per message (budget %d: %d + %d %%)\n' "$t" "$per" "$budget" "$measured" "$SLACK_PERCENT"
  else
    printf '%-17s %6d instructions per message: OVER the budget %d (%d + %d %%)\n' "$t" "$per" "$budget" "$measured" "$SLACK_PERCENT"
    status=1
  fi
done
exit "$status"
