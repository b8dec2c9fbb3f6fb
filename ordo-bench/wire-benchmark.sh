#!/usr/bin/env bash
# Ordo beside redis-server under redis-benchmark (see WireBenchmark's Javadoc for what it measures).
# Usage: ordo-bench/wire-benchmark.sh [JVM flags for the Ordo server...]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -DskipTests package
exec java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.WireBenchmark ordo-server/target/ordo-server.jar "$@"
