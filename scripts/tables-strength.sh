#!/usr/bin/env bash
# What larger endgame tables are worth in play: our engine with the tables in BIG (say 2–6
# pieces) against itself with those in SMALL (2–5), release build, both at a fixed time a move.
# The games start from endings taken from games — each game's first quiet position of PIECES
# pieces, level in material (`draughts pdn positions`) — each played from both sides, so the
# tables are reached within a few exchanges and what they add decides the score, not the
# middlegame. A game ends by the rules, or once SMALL's tables decide it (both engines hold them,
# so neither is wronged). Prints every result, the score with its Elo difference and 95%
# interval, and the PDN file of the games.
# Usage: scripts/tables-strength.sh BIG SMALL [games=200] [seconds-a-move=0.3] [pieces=8]
#   TABLES_PDN=games.pdn: the games to take the endings from (default: 6,000 self-play games the
#   script makes first, `draughts engine selfplay --seed 11`, about two minutes on two cores).
#   TABLES_OPENINGS=file: start from this openings file instead (openings/international.txt, or
#   none for every two-move start). TABLES_OUT=file.pdn: where the match's games go.
#   TABLES_CONCURRENCY=n: games played at once (default 1: each engine thinks on a core of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
  -h|--help|'') sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
big=${1:?BIG: the directory of the larger tables}
small=${2:?SMALL: the directory of the smaller tables}
games=${3:-200}
seconds=${4:-0.3}
pieces=${5:-8}
for d in "$big" "$small"; do
  [[ -d $d ]] || { echo "tables-strength.sh: no directory $d" >&2; exit 2; }
done
cargo build --release --quiet
bin=$PWD/target/release/draughts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
openings=${TABLES_OPENINGS-}
if [[ -z ${TABLES_OPENINGS+set} ]]; then
  source_pdn=${TABLES_PDN:-}
  if [[ -z $source_pdn ]]; then
    source_pdn=$work/selfplay.pdn
    echo "self-play: 6,000 games to take the endings from"
    "$bin" engine selfplay --games 6000 --seed 11 --out "$source_pdn" >/dev/null
  fi
  openings=$work/endings.txt
  "$bin" pdn positions --pieces "$pieces" "$source_pdn" > "$openings"
  echo "endings: $(wc -l < "$openings") positions of $pieces pieces, level in material, from $source_pdn"
fi
out=${TABLES_OUT:-tables-strength.pdn}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "tables $big against $small: $games games, $seconds s a move"
args=(--engine-a "hub:$bin hub --tablebases $big" --engine-b "hub:$bin hub --tablebases $small"
      --games "$games" --move-time "$seconds" --concurrency "${TABLES_CONCURRENCY:-1}"
      --tablebases "$small" --pdn "$out")
[[ -n $openings ]] && args+=(--openings "$openings")
"$bin" match "${args[@]}"
echo "games: $out"
