#!/usr/bin/env bash
# One very large board, Ordo beside redis-server (see ScaleBenchmark's Javadoc): load, resident
# memory, ZADD/ZINCRBY/ZREVRANK/ZSCORE/top 100/around-me over the wire and embedded, SAVE and load.
# Usage: MEMBERS=50000000 ordo-bench/scale-benchmark.sh [JVM flags for the Ordo server...]
# About 30 minutes and 12 GB of memory at 50M members (both servers and the embedded engine).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${BUILD:-1}" = 0 ] || ./mvnw -q -DskipTests package
exec java -XX:+UseParallelGC -Xmx${BENCH_HEAP:-8g} -Dmembers="${MEMBERS:-50000000}" -Dembedded="${EMBEDDED:-true}" \
  -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.ScaleBenchmark ordo-server/bin/ordo-server "$@"
