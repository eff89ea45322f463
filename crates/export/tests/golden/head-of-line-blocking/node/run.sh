#!/usr/bin/env bash
# Head-of-line blocking: runs scenario.cjs against a broker and prints the run contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# amqplib: the node_modules of scripts/setup.d/30-export-toolchains.sh (NODE_PATH), else
# one next to this file (npm install amqplib). Nothing to build (a syntax check first).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL [TIME_SCALE]}"
export TIME_SCALE="${2:-${TIME_SCALE:-1}}"
export NODE_PATH="${NODE_PATH:-${DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}/node/node_modules}"
node --check "$HERE/scenario.cjs"
exec node "$HERE/scenario.cjs" "$URL"
