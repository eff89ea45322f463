#!/usr/bin/env bash
# Delays built into quorum queues: x-opt-delivery-time on 4.4: runs the Spring Boot application against a broker.
#   ./run.sh AMQP_URL
# NOT RUN where delaylab is tested (no Maven Central there). Needs Maven 3.6+ and Java 17;
# prints the application's log, not the run contract JSON.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL}"
cd "$HERE"
exec mvn -q spring-boot:run -Dspring-boot.run.arguments="--spring.rabbitmq.addresses=$URL"
