#!/usr/bin/env bash
# Debian packages and local services the tests need, installed or started only when missing.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# `system-deps.sh cluster`: only what `make cluster` needs (HAProxy, PostgreSQL, Redis).
only="${1:-all}"

if [ "$only" = all ] && ! command -v chromium >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null
fi

# Node runs the WotR page's own log translation in tests/games/test_wotr_log_js.py.
if [ "$only" = all ] && ! command -v node >/dev/null 2>&1; then
  echo "installing Debian's nodejs for the page-script tests"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq nodejs >/dev/null
fi

# HAProxy balances the server processes of the cluster test and `make cluster`.
if ! command -v haproxy >/dev/null 2>&1; then
  echo "installing Debian's haproxy for the cluster test"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq haproxy >/dev/null
fi

# PostgreSQL and Redis run on this kind of machine; start them if they were stopped.
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 2>/dev/null; then
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi
if command -v redis-server >/dev/null 2>&1 && ! (command -v redis-cli >/dev/null && redis-cli -h 127.0.0.1 ping >/dev/null 2>&1); then
  as_root redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /tmp --logfile /tmp/roses-redis.log || true
fi
