#!/usr/bin/env bash
# Head-of-line blocking: builds main.go offline and runs it against a broker; prints the run contract
# JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Go in GOPATH mode (no module proxy): amqp091-go from Debian's
# golang-github-rabbitmq-amqp091-go-dev under /usr/share/gocode.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL [TIME_SCALE]}"
export TIME_SCALE="${2:-${TIME_SCALE:-1}}"
export GO111MODULE=off GOPATH="${GOPATH:-/usr/share/gocode}" GOFLAGS= GOPROXY=off
go build -o "$HERE/scenario" "$HERE/main.go"
exec "$HERE/scenario" "$URL"
