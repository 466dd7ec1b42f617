#!/usr/bin/env bash
# Sub-slices against whole jobs: generates every slice of 2..N pieces of a variant twice, once
# whole and once with every job that has men cut into sub-slices (--split), and compares every
# table file byte for byte. Prints each run's summary line and the verdict; exits 1 on the first
# file that differs. The test suite does this for 2–4 pieces of every variant; this script is
# for 2–5 (International 2–5: about 8 minutes whole on two cores, longer cut).
# Usage: scripts/compare-subslices.sh [variant] [pieces] [split-positions]
# DRAUGHTS_BIN=path uses that binary instead of building the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-international}
pieces=${2:-5}
split=${3:-3000000}
if [ -n "${DRAUGHTS_BIN:-}" ]; then
  bin=$DRAUGHTS_BIN
else
  cargo build --release --quiet
  bin=target/release/draughts
fi
whole=$(mktemp -d)
cut=$(mktemp -d)
trap 'rm -rf "$whole" "$cut"' EXIT
echo "machine: $(nproc) cores; $variant 2-$pieces, sub-slices of at most $split positions"
"$bin" tb generate --variant "$variant" --pieces "$pieces" --dir "$whole" | tail -n 1
"$bin" tb generate --variant "$variant" --pieces "$pieces" --dir "$cut" --split "$split" | tail -n 1
files=0
for f in "$whole"/*.wdl "$whole"/*.dtw; do
  name=$(basename "$f")
  if ! cmp -s "$f" "$cut/$name"; then
    echo "DIFFERENT: $name"
    exit 1
  fi
  files=$((files + 1))
done
extra=$(ls -A "$cut" | wc -l)
if [ "$extra" -ne "$files" ]; then
  echo "DIFFERENT: the cut run left $extra files against $files"
  exit 1
fi
echo "identical: $files table files, whole and in sub-slices"
