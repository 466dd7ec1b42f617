#!/usr/bin/env bash
# The web pages measured on a large club: a 300-player, 9-round Swiss with its 1,350 recorded
# games (examples/big_club.rs) and a round robin. Times `club publish` of the whole club and of
# the Swiss alone (three runs each, /usr/bin/time), then serves the club live and has N readers
# (default 200) read its pages at once for S seconds (examples/web_load.rs), twice: pages a
# second and the latency of a page, from a fresh server and then with every page made. Usage: scripts/web-bench.sh [readers] [seconds] [players] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
readers=${1:-200}
seconds=${2:-20}
players=${3:-300}
rounds=${4:-9}
cargo build --release --quiet --bin draughts --example big_club --example web_load
bin=$PWD/target/release/draughts
dir=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
target/release/examples/big_club "$dir/club.sqlite" "$players" "$rounds" 2>/dev/null
timed() { # label, command…
  for run in 1 2 3; do
    /usr/bin/time -f "$1 run $run: %e s wall, %U s user, %M KiB peak" "${@:2}" >/dev/null
  done
}
timed "publish, whole club" "$bin" club --db "$dir/club.sqlite" publish --out "$dir/site"
echo "  $(find "$dir/site" -type f | wc -l) files, $(du -sh "$dir/site" | cut -f1)"
timed "publish, the Swiss alone" "$bin" club --db "$dir/club.sqlite" publish --out "$dir/swiss" --tournament "Club Open"
(cd "$dir/site" && find . -name '*.html' | sed 's|^\./||') >"$dir/paths"
"$bin" serve --http 127.0.0.1:0 --db "$dir/club.sqlite" --host-key "$dir/host_key" \
  --http-connections $((readers + 16)) --log "$dir/serve.log" >"$dir/serve.out" 2>/dev/null &
server=$!
for _ in $(seq 100); do grep -q "web pages" "$dir/serve.out" 2>/dev/null && break; sleep 0.1; done
host=$(sed -n 's|web pages on http://||p' "$dir/serve.out" | head -n 1)
echo "live server, $(wc -l <"$dir/paths") pages to choose from; first from a fresh server (each"
echo "page made at its first request), then again with every page made:"
target/release/examples/web_load "$host" "$dir/paths" "$readers" "$seconds"
target/release/examples/web_load "$host" "$dir/paths" "$readers" "$seconds"
echo "server memory at the end: $(awk '/VmRSS/ {print $2}' "/proc/$server/status") KiB"
