#!/usr/bin/env bash
# Benchmarks, release build:
#  - move generation: bulk-counted perft from each variant's start position on one core;
#  - tablebases: generation rate of all 2–N-piece International slices (all cores), bits per
#    position on disk, and probe latency (block cached and not cached);
#  - search: the Woldouby position searched on one core to a fixed depth (ours) beside Moby Dam's
#    own 10-second search of it (nodes, depth and node rate from its engine.log) when
#    ../shared/peers is present.
# Usage: scripts/bench.sh [international-depth] [frisian-depth] [english-depth] [tb-pieces]
#        [search-depth]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/draughts
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
for spec in "international ${1:-10}" "frisian ${2:-10}" "english ${3:-12}"; do
  set -- $spec
  printf '%-14s ' "$1"
  "$bin" perft --variant "$1" --depth "$2" | tail -n 1
done
pieces=${4:-4}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'tb generate    '
"$bin" tb generate --variant international --pieces "$pieces" --dir "$dir" | tail -n 1
printf 'tb stats       '
"$bin" tb stats --variant international --dir "$dir" | tail -n 1
printf 'tb bench       '
"$bin" tb bench --variant international --dir "$dir" --positions 500
woldouby="W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
printf 'search         '
"$bin" engine analyse --variant international --fen "$woldouby" --depth "${5:-24}" | grep depth= | tail -n 1 | cut -d' ' -f1-5
if [[ -f ../shared/peers/build.sh ]]; then
  mobydam=$(bash ../shared/peers/build.sh | awk '$1 == "mobydam" && NF == 2 { print $2 }')
  (cd "$dir" && timeout 60 "$mobydam" -o "$woldouby" </dev/null >/dev/null 2>&1 || true)
  awk '/^reached depth=/ { split($2, d, "="); depth = d[2] }
       /^nodes total=/ { split($2, n, "="); nodes = n[2] }
       END { printf "mobydam        depth=%s nodes=%s time=10 nps=%.0f (its own 10 s search)\n", depth, nodes, nodes / 10 }' "$dir/engine.log"
else
  echo "mobydam        ../shared/peers is absent: no reference search to compare with"
fi
