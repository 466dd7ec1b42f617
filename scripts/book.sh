#!/usr/bin/env bash
# Reproduces the opening books the program ships (src/engine/book/<variant>.book) from the
# self-play games of scripts/train.sh (target/train/<variant>-0.pdn and -1.pdn, or TRAIN_DIR):
# every move played in at least 5 of those games within their first 12 plies, checked by a
# depth-12 search and dropped when it is valued more than a quarter of a man below the best
# move of its position. The games' first plies are random, so the book holds every sound
# first move; the searches are deterministic, so the same games give the same book.
#
# Usage: scripts/book.sh [variant ...]   (default: all three; about 5 minutes each on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/draughts"
work=${TRAIN_DIR:-target/train}
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(international frisian english)
for v in "${variants[@]}"; do
  for g in "$work/$v-0.pdn" "$work/$v-1.pdn"; do
    if [[ ! -f $g ]]; then
      echo "$g is missing: run scripts/train.sh $v first (it leaves its self-play games there)" >&2
      exit 2
    fi
  done
  echo "== $v"
  "$bin" engine book --variant "$v" --plies 12 --min-games 5 --depth 12 --margin 0.25 \
    --out "src/engine/book/$v.book" "$work/$v-0.pdn" "$work/$v-1.pdn"
  sha256sum "src/engine/book/$v.book"
done
