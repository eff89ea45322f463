#!/usr/bin/env bash
# Order timeout: a naive consumer closes paid orders: runs scenario.py against a broker and prints the run contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Python: the venv of scripts/setup.d/30-export-toolchains.sh (pika from PyPI), else any
# python3 that has pika. Nothing to build (a syntax check first).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL [TIME_SCALE]}"
export TIME_SCALE="${2:-${TIME_SCALE:-1}}"
PY="${DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}/py/bin/python"
[ -x "$PY" ] || PY=python3
"$PY" -c "import pika" 2>/dev/null || { echo "run.sh: $PY has no pika (pip install pika)" >&2; exit 2; }
"$PY" -m py_compile "$HERE/scenario.py"
exec "$PY" "$HERE/scenario.py" "$URL"
