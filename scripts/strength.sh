#!/usr/bin/env bash
# Engine strength against Moby Dam (International), over DXP, release build: our engine asks
# Moby Dam (served by ../shared/peers/mobydam-serve.sh, with its opening book) for GAMES games
# from the 2-move ballots engine authors use, each ballot played in both colours, both sides
# thinking SECONDS a move and neither with endgame tables. Prints every result, the score with
# its Elo difference and 95% interval, the PDN file of the games, and each side's mean search
# depth and node rate over the match.
# Usage: scripts/strength.sh [games=100] [seconds-a-move=0.3] [port=27631]
#   STRENGTH_PDN=file.pdn to choose where the games are written; STRENGTH_ARGS="--no-book …"
#   for more options of `draughts dxp`; STRENGTH_TABLEBASES=dir gives our engine the endgame
#   tables in dir (e.g. tablebases/international from `draughts tb generate`), Moby Dam still
#   without its own (the peers' server runs it without databases).
set -euo pipefail
cd "$(dirname "$0")/.."
peers=../shared/peers
if [[ ! -f $peers/build.sh || ! -f $peers/mobydam-serve.sh ]]; then
  echo "../shared/peers is absent: Moby Dam is needed as the opponent." >&2
  echo "Get its source (github.com/rhalbersma/mobydam) into ../shared/peers/mobydam with the" >&2
  echo "peers' build.sh and mobydam-serve.sh beside it, then run this again." >&2
  exit 2
fi
games=${1:-100}
seconds=${2:-0.3}
port=${3:-27631}
ms=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1000 }')
ballots="$peers/mobydam/test/2-move ballots matchfile.fen"
cargo build --release --quiet
tables=${STRENGTH_TABLEBASES:-}
if [[ -n $tables ]]; then
  [[ -d $tables ]] || { echo "STRENGTH_TABLEBASES: no directory $tables" >&2; exit 2; }
  which="ours with the endgame tables in $tables, Moby Dam without"
else
  which="no tables"
fi
work=$(mktemp -d)
pdn=${STRENGTH_PDN:-$work/games.pdn}
bash "$peers/mobydam-serve.sh" "$port" "$ms" "$work" >"$work/serve.log" 2>&1 &
serve=$!
# The server may have ended with the match already (Moby Dam stops when the client does).
trap 'kill $serve 2>/dev/null || true; wait $serve 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q listening "$work/serve.log" && break
  sleep 0.2
done
grep -q listening "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "draughts against Moby Dam: $games games from the 2-move ballots, ${seconds} s a move, $which"
target/release/draughts dxp --connect "127.0.0.1:$port" --games "$games" --openings "$ballots" \
  --move-time "$seconds" --time 10 --tablebases "${tables:-$work/no-tables-here}" --pdn "$pdn" \
  ${STRENGTH_ARGS:-} \
  | tee "$work/match.log" | grep --line-buffered -E '^game [0-9]+: [0-9]|^draughts .*: '
echo "games: $pdn"
# How far each side saw: our report lines carry each searched move's depth and nodes, Moby
# Dam's engine.log each search's depth and nodes (both sides think the same fixed time).
# A move the tables chose at the root (depth 0, no nodes) is no search.
awk -v s="$seconds" '/ s, depth 0, / { tables++; next }
  / s, depth [0-9]+, / {
    split($0, a, "depth "); split(a[2], b, ","); depth += b[1]
    n = split($0, w, " "); nodes += w[n - 1]; moves++ }
  END { if (moves) printf "ours:      %d searches, mean depth %.1f, %.1f M nodes/s", moves, depth / moves, nodes / moves / s / 1e6
        if (tables) printf " (and %d moves straight from the tables)", tables
        if (moves) printf "\n" }' \
  "$work/match.log"
awk -v s="$seconds" '/^reached depth=/ { split($2, d, "="); depth += d[2]; moves++ }
  /^nodes total=/ { split($2, n, "="); nodes += n[2] }
  END { if (moves) printf "Moby Dam:  %d searches, mean depth %.1f, %.1f M nodes/s\n", moves, depth / moves, nodes / moves / s / 1e6 }' \
  "$work/engine.log"
