#!/usr/bin/env bash
# The pictures of the guides (docs/pictures/*.svg), drawn from the program's real screens.
#
# Runs the release binary in tmux terminals of a fixed size, drives it by keys as a person
# would (a game stepped through, its review, a club's round, the SSH lobby), captures each
# screen with its colours (`tmux capture-pane -e`) and turns it into SVG (examples/term_svg.rs,
# a terminal emulator replaying the capture). Run it again when a screen changes.
#
#   scripts/doc-pictures.sh [out-dir=docs/pictures] [pdn-file]
#
# The game is the fifth of ../shared/pdn/international/mobydam_sijbgant.pdn when that folder is
# present, otherwise a game the engine plays against itself. Needs tmux and the OpenSSH client.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/pictures}"
pdn="${2:-../shared/pdn/international/mobydam_sijbgant.pdn}"
game=5
mkdir -p "$out"
cargo build --release --quiet
cargo build --release --quiet --example term_svg
bin="$PWD/target/release/draughts"
svg="$PWD/target/release/examples/term_svg"
work="$(mktemp -d)"
sock="draughts-pictures-$$"
server=""
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" USER=olga DRAUGHTS_DB="$work/club.sqlite"
mkdir -p "$HOME"
cols=100
rows=34
run="env HOME=$HOME USER=olga DRAUGHTS_DB=$DRAUGHTS_DB COLORTERM=truecolor LANG=C.UTF-8 TERM=tmux-256color"

declare -A height
# Starts a terminal named $1 running $2, $3 rows high (default $rows).
term() {
  height[$1]="${3:-$rows}"
  tmux -L "$sock" new-session -d -s "$1" -x "$cols" -y "${height[$1]}" "$2"
}
keys() { local t="$1"; shift; tmux -L "$sock" send-keys -t "$t" "$@"; }
screen() { tmux -L "$sock" capture-pane -p -t "$1"; }
# Waits until terminal $1 shows $2 (at most $3 seconds, default 30).
wait_for() {
  local limit=$((${3:-30} * 10))
  for _ in $(seq "$limit"); do
    screen "$1" | grep -qF -- "$2" && return 0
    sleep 0.1
  done
  echo "the screen $1 never showed: $2" >&2
  screen "$1" >&2
  exit 1
}
# Writes terminal $1 as $out/$2.svg with the title $3.
shot() {
  tmux -L "$sock" capture-pane -e -p -t "$1" > "$work/$2.ans"
  "$svg" "$work/$2.ans" "$cols" "${height[$1]}" "$3" > "$out/$2.svg"
  echo "$out/$2.svg"
}

if [ ! -f "$pdn" ]; then
  echo "no $pdn: the engine plays a game for the pictures"
  "$bin" match --engine-a engine:max --engine-b engine:max --games 1 --tc 20s+0.2s \
    --pdn "$work/game.pdn" > /dev/null
  pdn="$work/game.pdn"
  game=1
fi

# The game screen: a game stepped to its 41st ply.
term board "$run $bin play --pdn $pdn --game $game"
wait_for board "Stepping through the record"
keys board '{'
for _ in $(seq 41); do keys board ']'; done
wait_for board "Ply 41"
shot board board "The game screen: a recorded International game at ply 41, with the clocks and the move list"

# The review: the same game judged move by move, the advantage graph and the better move.
keys board -l ':review 0.2'
keys board Enter
wait_for board "Review done" 300
keys board '{'
for _ in $(seq 41); do keys board ']'; done
sleep 0.5
shot board review "The review of the game: the advantage graph, the judged move and the better one, both players' accuracy"

# The club: the evening's Swiss, round 2 with two results in.
"$bin" club member add "Ann Smit" --rating international=1650 > /dev/null
for m in "Bob Bakker:1500" "Cor de Wit:1480" "Dirk Visser:1420" "Eva Mulder:1390" "Frans Kok:1300"; do
  "$bin" club member add "${m%%:*}" --rating "international=${m##*:}" > /dev/null
done
"$bin" club member role "Bob Bakker" organiser > /dev/null
"$bin" club tournament create "Spring Swiss" --system swiss --rounds 5 --tc 80m+1m \
  --tiebreaks buchholz,sb > /dev/null
"$bin" club tournament enter "Spring Swiss" "Ann Smit" "Bob Bakker" "Cor de Wit" \
  "Dirk Visser" "Eva Mulder" "Frans Kok" > /dev/null
"$bin" club tournament pair "Spring Swiss" > /dev/null
"$bin" club tournament result "Spring Swiss" --round 1 "Ann Smit" 2-0 "Dirk Visser" > /dev/null
"$bin" club tournament result "Spring Swiss" --round 1 "Eva Mulder" 0-2 "Bob Bakker" > /dev/null
"$bin" club tournament result "Spring Swiss" --round 1 "Cor de Wit" 1-1 "Frans Kok" > /dev/null
"$bin" club tournament pair "Spring Swiss" > /dev/null
term club "$run $bin" 14
wait_for club "Club"
keys club c
wait_for club "Members"
keys club Tab
wait_for club "Spring Swiss"
keys club Enter
wait_for club "round 2 of 2"
keys club 1
keys club Down
keys club =
sleep 0.5
shot club round "The club screens: round 2 of a Swiss tournament, two results recorded, the keys below"

# The lobby over SSH: Ann signed in, Bob online with an open challenge.
ssh-keygen -q -t ed25519 -N "" -C ann -f "$work/ann"
ssh-keygen -q -t ed25519 -N "" -C bob -f "$work/bob"
"$bin" club member add-key "Ann Smit" "$work/ann.pub" > /dev/null
"$bin" club member add-key "Bob Bakker" "$work/bob.pub" > /dev/null
"$bin" serve --listen 127.0.0.1:0 --host-key "$work/host_key" > "$work/serve.out" 2> /dev/null &
server=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" && break; sleep 0.1; done
port="$(head -1 "$work/serve.out" | sed 's/.*://')"
ssh_opts="-tt -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o IdentitiesOnly=yes"
term bob "env TERM=tmux-256color ssh $ssh_opts -i $work/bob bob@127.0.0.1"
wait_for bob "Lobby"
keys bob c
wait_for bob "New challenge"
# Enter goes from field to field; on the last, "Challenge", it puts the challenge up.
for _ in $(seq 6); do keys bob Enter; done
wait_for bob "Challenge up"
term ann "env TERM=tmux-256color ssh $ssh_opts -i $work/ann ann@127.0.0.1" 12
wait_for ann "Bob Bakker"
sleep 1
shot ann lobby "The lobby of the club server over SSH: who is online, a challenge to accept, the games to watch"
