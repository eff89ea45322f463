#!/usr/bin/env bash
# Toolchains for the exported programs (`delaylab export code`, scripts/export-check.sh),
# all from the registries this machine reaches; each step skips what is present.
#   Java:   Debian openjdk-17-jdk-headless + librabbitmq-client-java (amqp-client 5.0.0)
#   Go:     Debian golang-go + golang-github-rabbitmq-amqp091-go-dev (GOPATH mode, no proxy)
#   Python: pika from PyPI in a venv         ($DELAYLAB_EXPORT_CACHE/py)
#   Node:   amqplib from npm, one node_modules ($DELAYLAB_EXPORT_CACHE/node)
#   Rust:   lapin from the cargo registry cache (a CLI dependency already)
# The cache directory defaults to ~/.cache/delaylab/export.
set -euo pipefail
CACHE="${DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}"
mkdir -p "$CACHE"
need_apt=()
dpkg -s openjdk-17-jdk-headless >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
dpkg -s librabbitmq-client-java >/dev/null 2>&1 || need_apt+=(librabbitmq-client-java)
dpkg -s golang-go >/dev/null 2>&1 || need_apt+=(golang-go)
dpkg -s golang-github-rabbitmq-amqp091-go-dev >/dev/null 2>&1 || need_apt+=(golang-github-rabbitmq-amqp091-go-dev)
if [ "${#need_apt[@]}" -gt 0 ]; then
  echo "export toolchains: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need_apt[@]}"
fi
if [ ! -x "$CACHE/py/bin/python" ] || ! "$CACHE/py/bin/python" -c "import pika" 2>/dev/null; then
  echo "export toolchains: python venv with pika in $CACHE/py"
  python3 -m venv "$CACHE/py"
  "$CACHE/py/bin/pip" install -q pika
fi
if [ ! -d "$CACHE/node/node_modules/amqplib" ]; then
  echo "export toolchains: amqplib from npm in $CACHE/node"
  mkdir -p "$CACHE/node"
  (cd "$CACHE/node" && { [ -f package.json ] || echo '{"name":"delaylab-export-deps","private":true}' > package.json; } \
    && npm install --silent --no-audit --no-fund amqplib)
fi
echo "export toolchains: ok (java $(java -version 2>&1 | head -1 | cut -d'"' -f2), $(go version 2>/dev/null | cut -d' ' -f3), pika $("$CACHE/py/bin/python" -c 'import pika; print(pika.__version__)'), amqplib $(node -p "require('$CACHE/node/node_modules/amqplib/package.json').version"))"
