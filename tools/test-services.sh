#!/usr/bin/env bash
# Start (or stop) a throwaway PostgreSQL and Redis on 127.0.0.1 for the server tests.
#
#   tools/test-services.sh install     # only install what is missing (make test does, first)
#   tools/test-services.sh start DIR   # prints PG_URL=... and REDIS_URL=... lines
#   tools/test-services.sh stop DIR
#   tools/test-services.sh pg-stop|pg-start|redis-stop|redis-start DIR   # an outage, and its end
#
# PostgreSQL runs from initdb on DIR/pg as the user postgres (it refuses to run as root); Redis
# runs daemonized with no persistence. Both get free ports. Missing packages are installed with
# apt-get when the script runs as root.
set -euo pipefail

cmd=${1:?start or stop}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ensure() {
  local missing=()
  pg_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "test-services: missing ${missing[*]} and not root to install them" >&2
      exit 1
    fi
    (apt-get install -y "${missing[@]}" || (apt-get update && apt-get install -y "${missing[@]}")) >&2
  fi
}

pg_start() {
  local bin
  bin=$(pg_bin)
  as_pg "$bin/pg_ctl" -D "$1/pg/data" -l "$1/pg/log" -w \
    -o "-h 127.0.0.1 -p $(cat "$1/pg.port") -k $1/pg -c fsync=off -c max_connections=200" start >/dev/null
}

redis_start() {
  local port
  port=$(cat "$1/redis.port")
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --dir "$1" --save '' \
    --appendonly no --pidfile "$1/redis.pid" --logfile "$1/redis.log"
  for _ in $(seq 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
}

redis_stop() {
  # SIGKILL: Redis vanishes as it would in a crash, its connections cut.
  if [ -f "$1/redis.pid" ]; then kill -9 "$(cat "$1/redis.pid")" 2>/dev/null || true; rm -f "$1/redis.pid"; fi
}

if [ "$cmd" = install ]; then
  ensure
  exit 0
fi
dir=${2:?a temporary folder}
mkdir -p "$dir"

case "$cmd" in
pg-stop)
  as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null
  ;;
pg-start)
  pg_start "$dir"
  ;;
redis-stop)
  redis_stop "$dir"
  ;;
redis-start)
  redis_start "$dir"
  ;;
start)
  ensure
  bin=$(pg_bin)
  pgport=$(free_port)
  rport=$(free_port)
  mkdir -p "$dir/pg"
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir"; chmod 755 "$dir"; fi
  as_pg "$bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust -E UTF8 >/dev/null
  echo "$pgport" > "$dir/pg.port"
  echo "$rport" > "$dir/redis.port"
  pg_start "$dir"
  redis_start "$dir"
  echo "PG_URL=postgresql://postgres@127.0.0.1:$pgport/postgres"
  echo "REDIS_URL=redis://127.0.0.1:$rport/0"
  ;;
stop)
  bin=$(pg_bin || true)
  if [ -n "${bin:-}" ] && [ -d "$dir/pg/data" ]; then
    as_pg "$bin/pg_ctl" -D "$dir/pg/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/redis.pid" ]; then kill "$(cat "$dir/redis.pid")" 2>/dev/null || true; fi
  ;;
*)
  echo "usage: $0 install | $0 start|stop|pg-stop|pg-start|redis-stop|redis-start DIR" >&2
  exit 2
  ;;
esac
