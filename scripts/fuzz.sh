#!/usr/bin/env bash
# The fuzzing campaign: every reader of outside input (PDN, FEN, move text, TRF, members CSV,
# settings, Hub lines, DXP messages, opening books, evaluation weights, openings files, time
# controls, tablebase files) takes N inputs made by mutating real files (../shared/pdn when
# present, files the program writes) and by generators that know each format, in-process on
# every core. Prints per reader: inputs, panics, inputs over 1 s, the slowest input, the rate and
# the peak memory of its process; a panicking input is saved under target/fuzz/. Exit status 1
# when any reader failed.
#
#   scripts/fuzz.sh [--inputs N] [--seed S] [--target NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=100000
seed=1
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --inputs) inputs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --target) only=$2; shift 2 ;;
    *) echo "usage: scripts/fuzz.sh [--inputs N] [--seed S] [--target NAME]" >&2; exit 2 ;;
  esac
done
cargo build --profile fuzz --example fuzz --quiet
bin=target/fuzz/examples/fuzz
targets=$($bin --list)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "fuzzing with $inputs inputs per reader, seed $seed"
status=0
for t in $targets; do
  if [ -n "$only" ] && [ "$t" != "$only" ]; then
    continue
  fi
  # One process per reader, so each peak memory figure is that reader's alone.
  $bin --inputs "$inputs" --seed "$seed" --target "$t" || status=1
done
exit $status
