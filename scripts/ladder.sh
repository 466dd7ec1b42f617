#!/usr/bin/env bash
# Calibrates the engine's levels into an Elo ladder: each level plays the next one up with the
# match harness (every two-ply opening in both colours, the same clock for both), and the
# ladder adds up the differences from level 1, anchored at 1000. A whitewash (no interval) is
# counted as 400.
# Usage: scripts/ladder.sh [variant=international] [games=200] [clock=3s+0.05s]
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-international}
games=${2:-200}
tc=${3:-3s+0.05s}
cargo build --release --quiet
bin=${LADDER_BIN:-"${CARGO_TARGET_DIR:-target}/release/draughts"}
work=$(mktemp -d)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "$variant levels, neighbour against neighbour: $games games each at $tc"
rating=1000
printf '%-6s %7s  %s\n' level rating "against the level below"
printf '%-6s %7d\n' 1 "$rating"
for n in 1 2 3 4 5 6 7 8 9; do
  up=$((n + 1))
  "$bin" match --variant "$variant" --engine-a "engine:$up" --engine-b "engine:$n" \
    --games "$games" --tc "$tc" --concurrency 2 --pdn "$work/$up-$n.pdn" >"$work/$up-$n.log"
  last=$(grep -E '^draughts engine:' "$work/$up-$n.log" | tail -1)
  diff=$(sed -E 's/.*Elo ([-+][0-9∞]+).*/\1/' <<<"$last")
  case $diff in
    +∞) diff=400 ;;
    -∞) diff=-400 ;;
  esac
  rating=$((rating + diff))
  printf '%-6s %7d  %s\n' "$up" "$rating" "${last#draughts }"
done
echo "games: $work"
