#!/usr/bin/env bash
# Generates the default tablebase set for all three variants into tablebases/<variant>/:
# International and Frisian up to 5 pieces, English up to 6 pieces. Finished slices are kept, so
# an interrupted run picks up where it stopped. Piece counts can be changed per variant:
#   INTERNATIONAL=4 ENGLISH=5 FRISIAN=4 scripts/generate-tablebases.sh
# Extra arguments (such as --threads 4 or --dir-root /data/tb) are passed on.
set -euo pipefail
cd "$(dirname "$0")/.."

root=tablebases
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir-root) root="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

cargo build --release --quiet
bin=target/release/draughts
for spec in "international ${INTERNATIONAL:-5}" "frisian ${FRISIAN:-5}" "english ${ENGLISH:-6}"; do
  set -- $spec
  echo "== $1: 2 to $2 pieces into $root/$1"
  "$bin" tb generate --variant "$1" --pieces "$2" --dir "$root/$1" "${args[@]}"
  "$bin" tb stats --variant "$1" --dir "$root/$1" | tail -n 1
done
