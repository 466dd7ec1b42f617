#!/usr/bin/env bash
# Load test of the club server on loopback: N pairs of members (default 25, so 50 sessions) sign
# in over SSH at once, each pair challenges, accepts and plays a game of P plies (default 30)
# through the real TUI; reports the server's memory per session and the move latency, as the
# client sees it (from Enter on one terminal to the move showing on the other's screen) and as
# the server measures it (from the key's arrival to the frame written on every terminal showing
# the game). Each player thinks T ms before each move (default 0: every player moves the moment
# the other's move shows, which saturates the server and makes the latency its queueing time).
# Usage: scripts/load-test.sh [pairs] [plies] [think-ms]
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-25}
plies=${2:-30}
think=${3:-0}
cargo build --release --quiet --bin draughts --example load
bin=target/release/draughts
dir=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
db="$dir/club.sqlite"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
for ((i = 0; i < pairs * 2; i++)); do
  ssh-keygen -q -t ed25519 -N "" -C "m$i" -f "$dir/m$i"
  "$bin" club --db "$db" member add "M$i" >/dev/null
  "$bin" club --db "$db" member add-key "M$i" "$dir/m$i.pub" >/dev/null
done
"$bin" serve --listen 127.0.0.1:0 --db "$db" --host-key "$dir/host_key" --per-ip $((pairs * 2 + 2)) \
  --log "$dir/serve.log" >"$dir/serve.out" 2>/dev/null &
server=$!
for _ in $(seq 100); do grep -q listening "$dir/serve.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$dir/serve.out" | head -n 1)
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
idle=$(rss)
peak=0
coproc CLIENT { target/release/examples/load "$port" "$dir" "$pairs" "$plies" "$think" 2>&1; }
client=$CLIENT_PID
while IFS= read -r line <&"${CLIENT[0]}"; do
  if [ "$line" = READY ]; then
    sleep 1
    peak=$(rss)
  else
    echo "$line"
  fi
done
wait "$client"
sessions=$((pairs * 2))
high=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
echo "server memory: ${idle} KiB idle, ${peak} KiB with ${sessions} sessions in the lobby ($(((peak - idle) / sessions)) KiB per session), ${high} KiB at the peak of the games ($(((high - idle) / sessions)) KiB per session)"
# Stopped as an operator would (SIGTERM): the server then logs the latency it measured.
kill -TERM "$server"
wait "$server" || true
server=
echo "in the server (key in to every terminal's frame out): $(sed -n 's/.*since the server started: //p' "$dir/serve.log" | tail -n 1)"
games=$("$bin" club --db "$db" online | grep -c ' 0-2 \| 2-0 ')
echo "games recorded in the club database: $games of $pairs"
