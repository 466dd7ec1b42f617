#!/usr/bin/env bash
# Benchmarks, release build:
#  - move generation: bulk-counted perft from each variant's start position on one core;
#  - tablebases: generation rate of all 2–N-piece International slices (all cores), bits per
#    position on disk, and probe latency (block cached and not cached).
# Usage: scripts/bench.sh [international-depth] [frisian-depth] [english-depth] [tb-pieces]
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
