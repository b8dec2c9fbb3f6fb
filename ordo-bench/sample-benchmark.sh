#!/usr/bin/env bash
# The Spring Boot sample in embedded mode beside redis mode (the same jar on a redis-server started
# for the run): startup time, heap after GC, and the leaderboard endpoint under load (see
# SampleBenchmark's Javadoc). Usage: ordo-bench/sample-benchmark.sh [clients] [seconds] [warm-up seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "sample-benchmark.sh: the load comes from wrk: apt-get install wrk" >&2; exit 2; }
# Boot's repackaging keeps a jar it made before when the sample's own classes did not change, even
# if the Ordo jars inside did: remove it so it is made again from this checkout.
rm -f ordo-samples/target/ordo-samples.jar ordo-samples/target/ordo-samples.jar.original
./mvnw -q -DskipTests package
exec java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.SampleBenchmark ordo-samples/target/ordo-samples.jar "$@"
