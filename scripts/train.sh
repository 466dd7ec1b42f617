#!/usr/bin/env bash
# Reproduces the evaluation weights the program ships (src/engine/eval/weights/<variant>.eval):
#   1. self-play from the untrained start (material and a few hand-set terms),
#   2. a first fit on those games,
#   3. self-play with the first fit,
#   4. the final fit, from the untrained start, on both sets of games.
# Every step is deterministic (seeded openings, node-limited searches, seeded sample order), so
# the same commit gives the same weights on any machine and any number of cores.
#
# Usage: scripts/train.sh [variant ...]   (default: all three; about 20 minutes each on 2 cores)
#        GAMES=n (games per self-play step, default 6000), TRAIN_DIR=dir (default target/train)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/draughts"
work=${TRAIN_DIR:-target/train}
games=${GAMES:-6000}
mkdir -p "$work"
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(international frisian english)
for v in "${variants[@]}"; do
  echo "== $v"
  "$bin" engine selfplay --variant "$v" --weights initial --games "$games" --seed 1 \
    --nodes 4000 --out "$work/$v-0.pdn"
  "$bin" engine train --variant "$v" --from initial --seed 1 \
    --out "$work/$v-1.eval" "$work/$v-0.pdn"
  "$bin" engine selfplay --variant "$v" --weights "$work/$v-1.eval" --games "$games" --seed 2 \
    --nodes 4000 --out "$work/$v-1.pdn"
  "$bin" engine train --variant "$v" --from initial --seed 1 \
    --out "src/engine/eval/weights/$v.eval" "$work/$v-0.pdn" "$work/$v-1.pdn"
  sha256sum "src/engine/eval/weights/$v.eval"
done
