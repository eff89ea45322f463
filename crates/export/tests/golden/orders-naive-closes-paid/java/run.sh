#!/usr/bin/env bash
# Order timeout: a naive consumer closes paid orders: builds Scenario.java offline and runs it against a broker; prints the run
# contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
# Needs javac/java 17 and Debian's librabbitmq-client-java (amqp-client 5.0.0) with
# slf4j (scripts/setup.d/30-export-toolchains.sh); CLASSPATH overrides the jars.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL [TIME_SCALE]}"
export TIME_SCALE="${2:-${TIME_SCALE:-1}}"
CP="${CLASSPATH:-/usr/share/java/amqp-client.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar}"
mkdir -p "$HERE/build"
# -XDstringConcat=inline: string concatenation without invokedynamic (no bootstrap
# pause at the first delivery).
javac -nowarn -XDstringConcat=inline -encoding UTF-8 -cp "$CP" -d "$HERE/build" "$HERE/Scenario.java"
# C1 only: starts faster and compiles less on a busy machine (timing matters here).
exec java -XX:TieredStopAtLevel=1 -cp "$HERE/build:$CP" Scenario "$URL"
