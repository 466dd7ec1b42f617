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
#   8. a fit, from the untrained start, on all four sets;
#   9. self-play with that fit (LABEL_GAMES games), every quiet position of them then valued by a
#      search of 1,000 nodes with that fit, and the final fit: from that fit, on those games,
#      each position's label half the game's result and half the search's value.
#   Frisian takes the labelled step (9) too, on top of its second fit, with 6,000 games and its
#   search's values read on a scale near the one its fits find (60; they find 57).
#  10. International then takes relabelled rounds, each on top of the last fit: self-play with
#      that fit (24,000 games, the round's seed; the later rounds' games end once the tables
#      hold the position), every quiet position valued by a search with it (4,000 nodes in the
#      first round, 10,000 in the second and third), or exactly where the 2–5-piece win/draw/loss tables
#      hold it (built into TRAIN_DIR first, about 7 minutes), and a fit from it on those games.
#      Each round is kept only when it beats the last one in a match (docs/engine.md, What
#      ships).
# Every step is deterministic (seeded openings, node-limited searches, seeded sample order), so
# the same commit gives the same weights on any machine and any number of cores.
# The games are made by the engine of a fixed commit for each variant (built from this
# repository's history into TRAIN_DIR): it plays every self-play step and makes the fits in
# between, which only steer the next step's games. A game depends on every detail of the search
# that plays it, so pinning that engine lets the search get faster or stronger without changing
# the weights; the fit on all the games is this commit's trainer and model. The labelled step
# is pinned the same way, fit and all (its labels are a search's values): one engine plays its
# games, values their positions and makes the final fit from them. Moving a pin is a deliberate
# step: rerun the pipeline, measure the new file against the old, ship both.
#
# Usage: scripts/train.sh [variant ...]   (default: all three; on 2 cores about 20 minutes for
#        English, 30 for Frisian, 80 for International, then 20 more for the first relabelled
#        round, 80 for the second and 40 for the third)
#        GAMES=n (games per self-play step, default 6000), MORE_GAMES=n and LAST_GAMES=n
#        (International's third and fourth steps, default 12000 and 24000), LABEL_GAMES=n (the
#        labelled step's games, default 12000 for International and 6000 for Frisian),
#        TRAIN_DIR=dir (default target/train)
#        SELFPLAY_REV=commit (the engine that makes every variant's games; `current`: this tree's)
#        LABEL_REV=commit (the engine of the labelled step; `current`: this tree's)
#        FIT_ONLY=1 (only the fits, on the games already in TRAIN_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/draughts"
work=${TRAIN_DIR:-target/train}
# The commit whose engine plays each variant's self-play games: the one the shipped file was
# made with.
declare -A pinned=(
  [international]=e049400f267284479d2bd8cef4321d0eb66099a1
  [frisian]=a3117a335db0918726c5d1f2e169630daf643b2e
  [english]=7b000fa7863356ef023df69d46675d77dd6b89ed
)
# The commit whose engine plays a variant's labelled step and values and fits its games (the
# labels are its search's values, so they are pinned as the games are); English has no such step.
declare -A label_pin=(
  [international]=c91cb5e0acec9a8bb77b850f945eda57c13eaa63
  [frisian]=a3117a335db0918726c5d1f2e169630daf643b2e
)
# The labelled step's games and the scale its search's values are read on (the game's expected
# score is σ(value / scale)).
declare -A label_games=([international]=12000 [frisian]=6000)
# The relabelled rounds, in order, each "seed:commit:label-nodes:ends": its seed, the commit
# whose engine plays, values and fits it (the tables it reads are built by this tree's
# generator: they hold exact values), the nodes of the search that values each position, and
# whether its self-play games end once the tables hold the position (`tables`) or play on (`play`).
declare -A relabel_rounds=([international]="7:498dd779ec945d7ace10d88f203caa786d4f2a5b:4000:play
11:8b271f6c86eeb56d44913265514695fe4e2920b2:10000:tables
13:cb6cb0768ba8f4ae51fa674f69e221f3fdf5c3fd:10000:tables")
declare -A label_scale=([international]=150 [frisian]=60)
# Prints the path of the engine built from commit $1 (built once into $work).
engine_at() {
  local rev=$1 dir="$work/engine-${1:0:12}"
  if [ "$rev" = current ]; then
    echo "$bin"
    return
  fi
  if [ ! -x "$dir/target/release/draughts" ]; then
    if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
      echo "commit $rev (the self-play engine) is not in this clone; fetch the history" \
        "(git fetch --unshallow) or set SELFPLAY_REV" >&2
      exit 2
    fi
    rm -rf "$dir/src" && mkdir -p "$dir/src"
    git archive "$rev" | tar -x -C "$dir/src"
    echo "building the self-play engine of ${rev:0:12}" >&2
    cargo build --release --quiet --manifest-path "$dir/src/Cargo.toml" --target-dir "$dir/target"
  fi
  echo "$dir/target/release/draughts"
}
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
  # Games per self-play step; step k plays with the fit on the sets before it (none: initial).
  counts=("$games" "$games")
  [ "$v" = international ] && counts+=("$more" "$last")
  sets=()
  for k in "${!counts[@]}"; do sets+=("$work/$v-$k.pdn"); done
  if [ -z "${FIT_ONLY:-}" ]; then
    play=$(engine_at "${SELFPLAY_REV:-${pinned[$v]}}")
    # Engines from before the two-phase evaluation fit one phase and have no --phases.
    steer=()
    "$play" engine train --help | grep -- --phases >/dev/null && steer=(--phases "$phases")
    weights=initial
    for k in "${!counts[@]}"; do
      if [ "$k" -gt 0 ]; then
        weights="$work/$v-$k.eval"
        "$play" engine train --variant "$v" --from initial --seed 1 "${steer[@]}" \
          --out "$weights" "${sets[@]:0:$k}"
      fi
      "$play" engine selfplay --variant "$v" --weights "$weights" --games "${counts[$k]}" \
        --seed $((k + 1)) --nodes 4000 --out "${sets[$k]}"
    done
  fi
  fit=$out
  [ -n "${label_pin[$v]:-}" ] && fit="$work/$v-unlabelled.eval"
  "$bin" engine train --variant "$v" --from initial --seed 1 --phases "$phases" \
    --out "$fit" "${sets[@]}"
  if [ -n "${label_pin[$v]:-}" ]; then
    label=$(engine_at "${LABEL_REV:-${label_pin[$v]}}")
    if [ -z "${FIT_ONLY:-}" ]; then
      "$label" engine selfplay --variant "$v" --weights "$fit" \
        --games "${LABEL_GAMES:-${label_games[$v]}}" --seed 5 --nodes 4000 \
        --out "$work/$v-labelled.pdn"
    fi
    "$label" engine train --variant "$v" --from "$fit" --seed 1 --phases "$phases" \
      --label-nodes 1000 --label-weight 0.5 --label-with "$fit" \
      --label-scale "${label_scale[$v]}" --out "$out" "$work/$v-labelled.pdn"
  fi
  if [ -n "${relabel_rounds[$v]:-}" ]; then
    tables="$work/tb-$v"
    "$bin" tb generate --variant "$v" --pieces 5 --metric wdl --dir "$tables"
    for round in ${relabel_rounds[$v]}; do
      IFS=: read -r seed pin nodes ends <<<"$round"
      relabel=$(engine_at "${LABEL_REV:-$pin}")
      prev="$work/$v-before-$seed.eval"
      cp "$out" "$prev"
      ending=()
      [ "$ends" = tables ] && ending=(--tablebases "$tables")
      if [ -z "${FIT_ONLY:-}" ]; then
        "$relabel" engine selfplay --variant "$v" --weights "$prev" --games 24000 \
          --seed "$seed" --nodes 4000 "${ending[@]}" --out "$work/$v-relabelled-$seed.pdn"
      fi
      "$relabel" engine train --variant "$v" --from "$prev" --seed 1 --phases "$phases" \
        --label-nodes "$nodes" --label-weight 0.5 --label-with "$prev" \
        --label-scale "${label_scale[$v]}" --tablebases "$tables" --out "$out" \
        "$work/$v-relabelled-$seed.pdn"
    done
  fi
  sha256sum "$out"
done
