#!/usr/bin/env bash
# Ordo beside redis-server under redis-benchmark (see WireBenchmark's Javadoc for what it measures).
# Usage: ordo-bench/wire-benchmark.sh [JVM flags for the Ordo server...]
# SUITE=script runs the scripting table (EVALSHA of the seeds' sliding-window limiter) instead;
# SUITE=default runs every test of a default redis-benchmark run, -P 1 and -P 16;
# SUITE=list runs LPUSH, RPOP, LRANGE 0 99 and LINDEX of a 1M-element list's middle, with memory per element;
# SUITE=tls runs ZSCORE and ZADD over TLS, both servers TLS-only (see TlsBenchmark's Javadoc).
# SUITE=pubsub runs PUBLISH to 1 and to 100 subscribers (see PubSubBenchmark's Javadoc).
# SUITE=console runs Ordo alone with and without one console dashboard open (see ConsoleFeedBenchmark).
# Ordo starts as the README starts it: ordo-server/bin/ordo-server with its config/jvm.options;
# flags given here are added after those (ORDO_JAVA_OPTS), so they win. BENCH_OPTS goes to the
# benchmark's own JVM instead: BENCH_OPTS="-Drounds=7 -Dpipelined=1500000" (see the Javadoc).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -DskipTests package
main=dev.ordo.bench.WireBenchmark
if [ "${SUITE:-zset}" = tls ]; then main=dev.ordo.bench.TlsBenchmark; fi
if [ "${SUITE:-zset}" = pubsub ]; then main=dev.ordo.bench.PubSubBenchmark; fi
if [ "${SUITE:-zset}" = console ]; then main=dev.ordo.bench.ConsoleFeedBenchmark; fi
# shellcheck disable=SC2086 # BENCH_OPTS is a list of options
exec java -Dsuite="${SUITE:-zset}" ${BENCH_OPTS:-} -cp ordo-bench/target/benchmarks.jar "$main" ordo-server/bin/ordo-server "$@"
