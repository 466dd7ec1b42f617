#!/usr/bin/env bash
# Move generation speed: bulk-counted perft from each variant's start position on one core.
# Usage: scripts/bench.sh [international-depth] [frisian-depth] [english-depth]
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
