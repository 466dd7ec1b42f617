#!/usr/bin/env bash
# The TUI's answer to keys while a tournament round is reviewed on all cores: a round of BOARDS
# real International games (default 4) from ../shared/pdn is put in a club database, the real
# binary runs in tmux, and SAMPLES key presses (default 40) that move the board selection are
# timed from the key to the screen showing it, first idle, then while `r` reviews the round.
# Usage: scripts/review-latency.sh [boards] [samples]
set -euo pipefail
cd "$(dirname "$0")/.."
games=../shared/pdn/international/mobydam_babasy1.pdn
if [[ ! -f $games ]]; then
  echo "$games is absent: any PDN file of International games with 30 moves or more will do;" >&2
  echo "edit the games= line of this script to point at one." >&2
  exit 2
fi
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
cargo build --release --quiet --bin draughts --example review_latency
target/release/examples/review_latency "$PWD/target/release/draughts" "$games" "${1:-4}" "${2:-40}"
