#!/usr/bin/env bash
# Two replicas of the app behind nginx with sticky routing (deploy/nginx.conf), for a class larger than one server.
#
#   bash deploy/start.sh [PORT]      # the class opens http://127.0.0.1:PORT (default 8080); Ctrl-C stops everything
#
# Each replica is one `streamlit run` (one Python process, one numba cache shared on disk), pinned to a core of its
# own when the machine has two or more. Needs nginx (Debian: apt-get install -y nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${1:-8080}"
PORT_A=$((PORT + 1))
PORT_B=$((PORT + 2))
WORK="$(mktemp -d -t rm-deploy-XXXXXX)"
mkdir -p "$WORK/tmp"
CORES=$(nproc)

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

for i in 0 1; do
  port=$([ "$i" = 0 ] && echo "$PORT_A" || echo "$PORT_B")
  pin=()
  if [ "$CORES" -ge 2 ]; then pin=(taskset -c "$i"); fi
  "${pin[@]}" python -m streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port "$port" \
    --browser.gatherUsageStats false >"$WORK/replica-$i.log" 2>&1 &
  pids+=($!)
done

sed -e "s/@PORT@/$PORT/" -e "s/@PORT_A@/$PORT_A/" -e "s/@PORT_B@/$PORT_B/" deploy/nginx.conf >"$WORK/nginx.conf"
for port in "$PORT_A" "$PORT_B"; do
  until curl -fs "http://127.0.0.1:$port/_stcore/health" >/dev/null; do sleep 0.5; done
done
nginx -c "$WORK/nginx.conf" -p "$WORK" &
pids+=($!)
echo "two replicas behind nginx: http://127.0.0.1:$PORT (logs in $WORK)"
wait
