#!/usr/bin/env bash
# Leaderboard operations on a 1,000,000-member board: embedded Ordo, an Ordo server and redis-server
# in one run, then 16 shards against one key on a three-master Redis Cluster (see
# LeaderboardBenchmark's Javadoc). Usage: ordo-bench/leaderboard-benchmark.sh [JVM flags for the Ordo server...]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -DskipTests package
if [ $# -eq 0 ]; then set -- -XX:+UseParallelGC; fi
exec java -XX:+UseParallelGC -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.LeaderboardBenchmark ordo-server/target/ordo-server.jar "$@"
