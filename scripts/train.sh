#!/usr/bin/env bash
# Reproduces the evaluation weights the program ships (src/engine/eval/weights/<variant>.eval):
#   1. self-play from the untrained start (material and a few hand-set terms),
#   2. a first fit on those games,
#   3. self-play with the first fit,
#   4. a second fit, from the untrained start, on both sets of games;
#   Frisian and English fit one value per weight for the whole game (--phases 1); International
#   fits an opening and an ending value apart, and as its 183,000 pattern weights need more
#   games than that:
#   5. self-play with the second fit (MORE_GAMES games),
#   6. a third fit, from the untrained start, on all three sets,
#   7. self-play with the third fit (LAST_GAMES games),
#   8. the final fit, from the untrained start, on all four sets.
# Every step is deterministic (seeded openings, node-limited searches, seeded sample order), so
# the same commit gives the same weights on any machine and any number of cores.
#
# Usage: scripts/train.sh [variant ...]   (default: all three; on 2 cores about 20 minutes each
#        for Frisian and English, 50 for International)
#        GAMES=n (games per self-play step, default 6000), MORE_GAMES=n and LAST_GAMES=n
#        (International's third and fourth steps, default 12000 and 24000),
#        TRAIN_DIR=dir (default target/train)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/draughts"
work=${TRAIN_DIR:-target/train}
games=${GAMES:-6000}
more=${MORE_GAMES:-12000}
last=${LAST_GAMES:-24000}
mkdir -p "$work"
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(international frisian english)
for v in "${variants[@]}"; do
  echo "== $v"
  out="src/engine/eval/weights/$v.eval"
  phases=1
  [ "$v" = international ] && phases=2
  "$bin" engine selfplay --variant "$v" --weights initial --games "$games" --seed 1 \
    --nodes 4000 --out "$work/$v-0.pdn"
  "$bin" engine train --variant "$v" --from initial --seed 1 --phases "$phases" \
    --out "$work/$v-1.eval" "$work/$v-0.pdn"
  "$bin" engine selfplay --variant "$v" --weights "$work/$v-1.eval" --games "$games" --seed 2 \
    --nodes 4000 --out "$work/$v-1.pdn"
  sets=("$work/$v-0.pdn" "$work/$v-1.pdn")
  if [ "$v" = international ]; then
    "$bin" engine train --variant "$v" --from initial --seed 1 --phases "$phases" \
      --out "$work/$v-2.eval" "${sets[@]}"
    "$bin" engine selfplay --variant "$v" --weights "$work/$v-2.eval" --games "$more" \
      --seed 3 --nodes 4000 --out "$work/$v-2.pdn"
    sets+=("$work/$v-2.pdn")
    "$bin" engine train --variant "$v" --from initial --seed 1 --phases "$phases" \
      --out "$work/$v-3.eval" "${sets[@]}"
    "$bin" engine selfplay --variant "$v" --weights "$work/$v-3.eval" --games "$last" \
      --seed 4 --nodes 4000 --out "$work/$v-3.pdn"
    sets+=("$work/$v-3.pdn")
  fi
  "$bin" engine train --variant "$v" --from initial --seed 1 --phases "$phases" \
    --out "$out" "${sets[@]}"
  sha256sum "$out"
done
