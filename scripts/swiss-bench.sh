#!/usr/bin/env bash
# Swiss pairing beside the reference engine, release build: for 9, 40, 100, 300 and 1,000 players
# (or the players:rounds given), a Swiss is played up to its last round, which is then paired by
# the club and by bbpPairings (FIDE Dutch system, built from ../shared/peers when present);
# prints each time and how many boards are identical.
# Usage: scripts/swiss-bench.sh [players:rounds ...]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
bbp=()
if [[ -x ../shared/peers/build.sh || -f ../shared/peers/build.sh ]]; then
  bbp=("$(bash ../shared/peers/build.sh | awk '$1 == "bbpPairings" { print $2 }')")
else
  echo "../shared/peers is absent: the club's times only (no reference to compare with)"
fi
cargo run --release --quiet --example swiss_bench -- "${bbp[@]}" "$@"
