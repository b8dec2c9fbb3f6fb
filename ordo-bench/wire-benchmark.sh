#!/usr/bin/env bash
# Ordo beside redis-server under redis-benchmark (see WireBenchmark's Javadoc for what it measures).
# Usage: ordo-bench/wire-benchmark.sh [JVM flags for the Ordo server...]
# SUITE=script runs the scripting table (EVALSHA of the seeds' sliding-window limiter) instead.
# Without flags it uses ORDO_LEAN_JVM, the small-footprint settings the README recommends for
# servers whose memory matters (serial GC, small young generation, heap that shrinks back, and
# glibc's free memory given back to the system every second).
set -euo pipefail
cd "$(dirname "$0")/.."
ORDO_LEAN_JVM=(-XX:+UseSerialGC -Xms24m -Xmx1g -Xmn4m -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10
  -XX:ReservedCodeCacheSize=32m -Xss256k -XX:CICompilerCount=2 -XX:TrimNativeHeapInterval=1000)
./mvnw -q -DskipTests package
if [ $# -eq 0 ]; then set -- "${ORDO_LEAN_JVM[@]}"; fi
exec java -Dsuite="${SUITE:-zset}" -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.WireBenchmark ordo-server/target/ordo-server.jar "$@"
