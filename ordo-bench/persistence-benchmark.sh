#!/usr/bin/env bash
# Durability side by side: Ordo's server jar and redis-server on the same data (one sorted set of
# 1,000,000 members plus 100,000 sorted sets of 10 members), measured in one run:
#   - SAVE time and snapshot size, and load time at start (each server's own log line), for the
#     1M-member set alone (the issue's anchor) and with the small sets added;
#   - write throughput with the append-only file on, appendfsync everysec and always:
#     redis-benchmark ZADD, 50 clients, -P 1 and -P 16, both servers up at once: a warm-up run,
#     then five rounds alternating the servers, and each one's median.
# Usage: ordo-bench/persistence-benchmark.sh [--no-build] [--aof-only]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=1 SNAPSHOTS=1
for arg in "$@"; do
  case $arg in
    --no-build) BUILD=0 ;;
    --aof-only) SNAPSHOTS=0 ;;
    *) echo "usage: $0 [--no-build] [--aof-only]" >&2; exit 2 ;;
  esac
done
[ $BUILD = 0 ] || ./mvnw -q -DskipTests package
JAR=ordo-server/target/ordo-server.jar
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_ready() { # PONG, not the LOADING error a server answers while it loads
  for _ in $(seq 1 1200); do [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ] && return 0; sleep 0.05; done
  echo "server on $1 did not start" >&2; exit 1; }
start() { # name port dir extra...
  local name=$1 port=$2 dir=$3; shift 3
  if [ "$name" = redis ]; then
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --logfile "$dir/server.log" "$@" &
  else
    java -XX:+UseParallelGC -Xmx8g -jar "$JAR" --port "$port" --dir "$dir" --save "" "$@" >"$dir/server.log" 2>&1 &
  fi
  echo $! >"$dir/pid"; wait_ready "$port"
}
stop() { redis-cli -p "$1" shutdown nosave >/dev/null 2>&1 || true; wait "$(cat "$2/pid")" 2>/dev/null || true; }
ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
BIG='for i = 1, 1000000 do redis.call("ZADD", "big", i * 1.5, "member:" .. i) end return 1'
SMALL='for k = 1, 100000 do redis.call("ZADD", "small:" .. k, 1, "a", 2, "b", 3, "c", 4, "d", 5, "e", 6, "f", 7, "g", 8, "h", 9, "i", 10, "j") end return 1'

if [ $SNAPSHOTS = 1 ]; then
  # Each figure is the median of three: three SAVEs in a row, three restarts that load the file.
  printf '%-22s %-6s %10s %10s %10s\n' "data" server "save (s)" "size (MB)" "load (s)"
  for data in "1M-member zset" "+ 100k zsets of 10"; do
    for name in redis ordo; do
      dir="$WORK/$name-rdb"; rm -rf "$dir"; mkdir -p "$dir"; port=$(free_port)
      start "$name" "$port" "$dir"
      redis-cli -p "$port" eval "$BIG" 0 >/dev/null
      [ "$data" = "1M-member zset" ] || redis-cli -p "$port" eval "$SMALL" 0 >/dev/null
      save=$(for _ in 1 2 3; do t0=$(ms); redis-cli -p "$port" save >/dev/null; t1=$(ms); echo $((t1 - t0)); done | median)
      size=$(stat -c %s "$dir/dump.rdb")
      stop "$port" "$dir"
      load=$(for _ in 1 2 3; do
        : >"$dir/server.log"; port=$(free_port); start "$name" "$port" "$dir"
        [ "$(redis-cli -p "$port" zcard big)" = 1000000 ] || { echo "$name lost data on load" >&2; exit 1; }
        grep -oE 'DB loaded from disk: [0-9.]+ seconds' "$dir/server.log" | grep -oE '[0-9.]+' | head -1
        stop "$port" "$dir"
      done | median)
      printf '%-22s %-6s %10.3f %10.1f %10s\n' "$data" "$name" "$(echo "$save/1000" | bc -l)" "$(echo "$size/1048576" | bc -l)" "$load"
    done
  done
fi

echo
printf '%-9s %4s %14s %14s %6s\n' fsync P "Redis ZADD/s" "Ordo ZADD/s" ratio
zadds() { # port: ZADDs per second under the current $n and $pipeline
  redis-benchmark -p "$1" -t zadd -n "$n" -c 50 -P "$pipeline" -r 1000000 -q 2>/dev/null | grep -oE '[0-9.]+ requests per second' | grep -oE '^[0-9.]+'; }
declare -A port
for fsync in everysec always; do
  for pipeline in 1 16; do
    for name in redis ordo; do
      dir="$WORK/$name-aof-$fsync-$pipeline"; mkdir -p "$dir"; port[$name]=$(free_port)
      start "$name" "${port[$name]}" "$dir" --appendonly yes --appendfsync "$fsync"
    done
    n=$([ "$pipeline" = 1 ] && echo 100000 || echo 1000000)
    # a warm-up run as long as a measured one, for both servers: a fresh JVM is still compiling
    # its hot paths during the first seconds (a fifth of a run left -P 1 measuring the compiler),
    # and a server that has been up a minute has long finished. Then five rounds, the servers
    # alternating so that both see the same moments of a shared machine, and each one's median.
    zadds "${port[redis]}" >/dev/null; zadds "${port[ordo]}" >/dev/null
    : >"$WORK/redis.rps"; : >"$WORK/ordo.rps"
    for _ in 1 2 3 4 5; do
      zadds "${port[redis]}" >>"$WORK/redis.rps"; zadds "${port[ordo]}" >>"$WORK/ordo.rps"
    done
    redis_rps=$(median <"$WORK/redis.rps"); ordo_rps=$(median <"$WORK/ordo.rps")
    for name in redis ordo; do stop "${port[$name]}" "$WORK/$name-aof-$fsync-$pipeline"; done
    printf '%-9s %4s %14s %14s %6.2f\n' "$fsync" "$pipeline" "$redis_rps" "$ordo_rps" "$(echo "$ordo_rps/$redis_rps" | bc -l)"
  done
done
