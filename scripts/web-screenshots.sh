#!/usr/bin/env bash
# Screenshots of the published site in headless Chromium, at 1280 and 375 pixels wide: a small
# club (a Swiss of five with a bye, an absence and a withdrawal; a round robin with a reviewed
# game) is made with the command line, published, and its home, tournament, round, member and
# game pages are photographed. Usage: scripts/web-screenshots.sh [out-dir] (default web-shots/).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web-shots}
cargo build --release --quiet --bin draughts
bin=$PWD/target/release/draughts
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db="$dir/club.sqlite"
c() { "$bin" club --db "$db" "$@" >/dev/null; }
for n in "Ann Smit" "Bob de Vries" "Cor Jansen" "Dirk Bakker" "Eva Visser" "Fay Mulder"; do
  c member add "$n" --rating international=$((1400 + RANDOM % 400))
done
c tournament create "Club Open" --system swiss --rounds 3 --tiebreaks buchholz,sb --tc 45m+15s
c tournament enter "Club Open" "Ann Smit" "Bob de Vries" "Cor Jansen" "Dirk Bakker" "Eva Visser"
c tournament absent "Club Open" "Eva Visser" --round 2
results=(2-0 1-1 0-2)
for round in 1 2 3; do
  c tournament pair "Club Open"
  [ "$round" = 3 ] && c tournament withdraw "Club Open" "Dirk Bakker"
  i=0
  while IFS=$'\t' read -r white black result; do
    if [ -n "$black" ] && [ "$result" = null ]; then
      c tournament result "Club Open" --round "$round" "$white" "${results[i % 3]}" "$black"
    fi
    i=$((i + 1))
  done < <("$bin" club --db "$db" tournament show "Club Open" --round "$round" --json |
    python3 -c 'import json,sys; [print(p["white"], p["black"] or "", json.dumps(p["result"]), sep="\t") for p in json.load(sys.stdin)]')
done
c tournament create "Autumn" --tc 80m+1m
c tournament enter "Autumn" "Ann Smit" "Bob de Vries" "Cor Jansen" "Fay Mulder"
c tournament pair "Autumn"
cat >"$dir/game.pdn" <<'PDN'
[Event "Autumn"]
[Round "1"]
[White "Ann Smit"]
[Black "Fay Mulder"]
[Result "0-2"]

1. 32-28 {[%eval +0.05]} 18-23 {[%eval +0.00]} 2. 37-32 {[%eval +0.05]} 12-18 {[%eval +0.10]}
3. 41-37 {[%eval +0.05]} 7-12 {[%eval +0.05]} 4. 34-29 {[%eval +0.20]} 23x34 {[%eval +0.15]}
5. 40x29 {[%eval +0.15]} 19-23 {[%eval +0.10]} 6. 28x19?? {[%eval -1.90] Blunder (+0.10 → -1.90); best 29x18}
14x34 {[%eval -1.95]} 0-2
PDN
c tournament import "Autumn" "$dir/game.pdn"
mkdir -p "$out"
"$bin" club --db "$db" publish --out "$dir/site" --title "DC Example" >/dev/null
shot() { # page name
  for width in 1280 375; do
    height=$((width == 375 ? 1400 : 1000))
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --hide-scrollbars --user-data-dir="$dir/profile" --window-size="$width,$height" \
      --screenshot="$out/$2-$width.png" "file://$dir/site/$1" 2>/dev/null
  done
}
shot index.html home
shot "$(cd "$dir/site" && ls tournaments/*-club-open.html)" tournament
shot "$(cd "$dir/site" && ls tournaments/*-club-open-round-3.html)" round
shot "$(cd "$dir/site" && ls members/*-ann-smit.html)" member
shot "$(cd "$dir/site" && ls games/*.html | head -n 1)#ply=9" game
ls "$out"
