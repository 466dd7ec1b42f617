#!/usr/bin/env bash
# Engine strength against a reference program over DXP, release build: our engine asks the peer
# (Moby Dam, served by ../shared/peers/mobydam-serve.sh, or Scan 2.0, by scan-serve.sh, each with
# its opening book) for GAMES games from the 2-move ballots engine authors use, each ballot played
# in both colours, neither side with endgame tables. Either both think a fixed time a move, or
# (--clock) the game request hands both a game clock and each manages its own time. Prints every
# result, the score with its Elo difference and 95% interval, the PDN file of the games, and each
# side's mean search depth and node rate where the peer's log gives them.
# Usage: scripts/strength.sh [--peer mobydam|scan] [--clock MINUTESm] [--from BALLOT]
#                            [games=100] [seconds-a-move=0.3] [port=27631]
#   --peer: the opponent (default mobydam). --clock 5m: five minutes a side for the whole game
#   (Scan only: Moby Dam's server holds a fixed time a move). --from N starts at ballot N (1-based),
#   so runs side by side can share the file; a run longer than the ballots left after N starts
#   again at ballot N, not at ballot 1 (--from 76 50 plays ballots 76-79 over and over: ask for
#   --from 76 8 and --from 1 42 instead). STRENGTH_PDN=file.pdn to choose where the games are
#   written; STRENGTH_ARGS="--no-book …" for more options of `draughts dxp`; STRENGTH_TABLEBASES=dir
#   gives our engine the endgame tables in dir (e.g. tablebases/international from
#   `draughts tb generate`), the peer still without its own.
set -euo pipefail
cd "$(dirname "$0")/.."
peer=mobydam
clock=
from=1
positional=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --peer) peer=${2:?--peer needs mobydam or scan}; shift 2 ;;
    --clock) clock=${2:?--clock needs minutes, as in 5m}; shift 2 ;;
    --from) from=${2:?--from needs a ballot number}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "strength.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
case $peer in
  mobydam) peer_name="Moby Dam"; serve=mobydam-serve.sh ;;
  scan) peer_name="Scan 2.0"; serve=scan-serve.sh ;;
  *) echo "strength.sh: --peer is mobydam or scan, not $peer" >&2; exit 2 ;;
esac
minutes=
if [[ -n $clock ]]; then
  [[ $clock =~ ^([0-9]+)m?$ ]] || { echo "strength.sh: --clock takes minutes, as in 5m" >&2; exit 2; }
  minutes=${BASH_REMATCH[1]}
  [[ $peer == scan ]] || { echo "strength.sh: --clock needs --peer scan (Moby Dam's server holds a fixed time a move)" >&2; exit 2; }
fi
[[ $from =~ ^[1-9][0-9]*$ ]] || { echo "strength.sh: --from takes a ballot number from 1" >&2; exit 2; }
peers=../shared/peers
if [[ ! -f $peers/build.sh || ! -f $peers/$serve ]]; then
  echo "../shared/peers is absent: $peer_name is needed as the opponent." >&2
  echo "Get its source (github.com/rhalbersma/mobydam, github.com/rhalbersma/scan) into" >&2
  echo "../shared/peers with the peers' build.sh and $serve beside it, then run this again." >&2
  exit 2
fi
games=${positional[0]:-100}
seconds=${positional[1]:-0.3}
port=${positional[2]:-27631}
ms=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 1000 }')
cargo build --release --quiet
tables=${STRENGTH_TABLEBASES:-}
if [[ -n $tables ]]; then
  [[ -d $tables ]] || { echo "STRENGTH_TABLEBASES: no directory $tables" >&2; exit 2; }
  which="ours with the endgame tables in $tables, $peer_name without"
else
  which="no tables"
fi
work=$(mktemp -d)
pdn=${STRENGTH_PDN:-$work/games.pdn}
# The ballots from the one asked for; each pair of games plays the next.
tail -n "+$from" "$peers/mobydam/test/2-move ballots matchfile.fen" >"$work/ballots.fen"
[[ -s $work/ballots.fen ]] || { echo "strength.sh: --from $from is past the last ballot" >&2; exit 2; }
if [[ -n $minutes ]]; then
  bash "$peers/$serve" "$port" 0 "$work" >"$work/serve.log" 2>&1 &
  timing=(--time "$minutes")
  unit=minutes; [[ $minutes == 1 ]] && unit=minute
  how="a game clock of $minutes $unit a side"
else
  bash "$peers/$serve" "$port" "$ms" "$work" >"$work/serve.log" 2>&1 &
  timing=(--move-time "$seconds" --time 10)
  how="${seconds} s a move"
fi
server=$!
# The server may have ended with the match already (the peer stops when the client does).
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  grep -q listening "$work/serve.log" && break
  sleep 0.2
done
grep -q listening "$work/serve.log" || { cat "$work/serve.log" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "draughts against $peer_name: $games games from the 2-move ballots (from ballot $from), $how, $which"
target/release/draughts dxp --connect "127.0.0.1:$port" --games "$games" --openings "$work/ballots.fen" \
  "${timing[@]}" --tablebases "${tables:-$work/no-tables-here}" --pdn "$pdn" \
  ${STRENGTH_ARGS:-} \
  | tee "$work/match.log" | grep --line-buffered -E '^game [0-9]+: [0-9]|^draughts .*: '
echo "games: $pdn"
# How far each side saw: our report lines carry each searched move's time, depth and nodes, Moby
# Dam's engine.log each search's depth and nodes. A move the tables chose at the root (depth 0,
# no nodes) is no search.
awk '/ s, depth 0, / { tables++; next }
  / s, depth [0-9]+, / {
    split($0, a, "depth "); split(a[2], b, ","); depth += b[1]
    k = split(a[1], c, " "); secs += substr(c[k - 1], 2)
    n = split($0, w, " "); nodes += w[n - 1]; moves++ }
  END { if (moves) printf "ours:      %d searches, mean depth %.1f, %.1f M nodes/s, %.2f s a search", moves, depth / moves, nodes / secs / 1e6, secs / moves
        if (tables) printf " (and %d moves straight from the tables)", tables
        if (moves) printf "\n" }' \
  "$work/match.log"
if [[ $peer == mobydam ]]; then
  awk -v s="$seconds" '/^reached depth=/ { split($2, d, "="); depth += d[2]; moves++ }
    /^nodes total=/ { split($2, n, "="); nodes += n[2] }
    END { if (moves) printf "Moby Dam:  %d searches, mean depth %.1f, %.1f M nodes/s\n", moves, depth / moves, nodes / moves / s / 1e6 }' \
    "$work/engine.log"
fi
