#!/usr/bin/env bash
# Benchmarks, release build:
#  - move generation: bulk-counted perft from each variant's start position on one core;
#  - tablebases: generation rate of all 2–N-piece International slices (all cores), bits per
#    position on disk, and probe latency (block cached and not cached);
#  - search: the node rate on one core, 10 s a position (the International bench positions and
#    Woldouby), beside Moby Dam's own 10-second search of each (from its engine.log) when
#    ../shared/peers is present.
# Usage: scripts/bench.sh [international-depth] [frisian-depth] [english-depth] [tb-pieces]
# SEARCH_RUNS=N searches each position N times (default 1) and ends with the median of each
# position's ratios and each engine's lowest and highest rate: on a shared machine one run's
# ratio moves by a tenth or more.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${SEARCH_RUNS:-1}
if ! [[ $runs =~ ^[1-9][0-9]{0,2}$ ]]; then
  echo "SEARCH_RUNS must be a whole number from 1 to 999, not '$runs'" >&2
  exit 2
fi
cargo build --release --quiet
bin=target/release/draughts
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
for spec in "international ${1:-10}" "frisian ${2:-10}" "english ${3:-12}"; do
  set -- $spec
  printf '%-14s ' "$1"
  "$bin" perft --variant "$1" --depth "$2" | tail -n 1
done
pieces=${4:-4}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'tb generate    '
"$bin" tb generate --variant international --pieces "$pieces" --dir "$dir" | tail -n 1
printf 'tb stats       '
"$bin" tb stats --variant international --dir "$dir" | tail -n 1
printf 'tb bench       '
"$bin" tb bench --variant international --dir "$dir" --positions 500
# The search's node rate beside Moby Dam's: each International position of `draughts engine
# bench`, then Woldouby, searched for 10 s by each engine on one core with a 64 MB table (Moby
# Dam's `-o FEN` is its own 10 s search; `-t 22` gives it 2^22 entries of 16 bytes). On two cores
# or more the two searches run at the same time, each pinned to a core of its own, so that both
# see the machine as it is in those 10 s (a shared machine's speed drifts by a fifth from one
# minute to the next), and the two swap cores from one run to the next, so that neither keeps a
# core that may be the slower; otherwise one after the other. Ours counts the whole search, the
# iteration the time cut short included.
woldouby="W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
positions=("W:W31-50:B1-20"
  "W:W27,28,31,32,33,36,37,38,39,41,42,43,44,46,47,48:B3,5,8,9,11,12,13,14,16,17,18,19,21,22,24,26"
  "$woldouby")
names=(start middlegame woldouby)
mobydam=
if [[ -f ../shared/peers/build.sh ]]; then
  mobydam=$(bash ../shared/peers/build.sh | awk '$1 == "mobydam" && NF == 2 { print $2 }')
else
  echo "mobydam        ../shared/peers is absent: no reference search to compare with"
fi
side_by_side=
if [[ -n $mobydam ]] && (($(nproc) >= 2)) && command -v taskset >/dev/null; then
  side_by_side=1
  echo "search: ours and Moby Dam at the same time on cores 0 and 1, swapping cores each run"
fi
# Our table asks for huge pages and Moby Dam's does not: under `madvise` only ours gets them,
# under `always` both do (Moby Dam's rate rises by a fifth), so the setting goes with the figures.
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [[ -n $mobydam && -r $thp ]]; then
  echo "search: transparent huge pages $(sed 's/.*\[\(.*\)\].*/\1/' "$thp")"
fi
# moby_search FEN WORK: Moby Dam's own 10 s search of FEN, its engine.log written into WORK (on
# the core `theirs` names when side by side).
moby_search() {
  (cd "$2" && timeout 60 ${side_by_side:+taskset -c "$theirs"} "$mobydam" -t 22 -o "$1" \
    </dev/null >/dev/null 2>&1 || true)
}
declare -A ratios rates
# spread RATES FIELD: the lowest and highest of field FIELD (1: ours, 2: Moby Dam's) of the
# space-separated `ours:mobydam` pairs RATES, as `low-high`.
spread() {
  tr ' ' '\n' <<<"$1" | grep . | cut -d: -f"$2" | sort -n | sed -n '1p;$p' | paste -sd-
}
for ((run = 1; run <= runs; run++)); do
  mine=$(((run + 1) % 2)) theirs=$((run % 2))
  for i in "${!positions[@]}"; do
    fen=${positions[$i]}
    work=$(mktemp -d "$dir/mobydam.XXXX")
    if [[ -n $side_by_side ]]; then
      moby_search "$fen" "$work" &
    fi
    ours=$(${side_by_side:+taskset -c "$mine"} "$bin" engine analyse --variant international --fen "$fen" \
      --time 10 --hash 64 | awk '/^depth=/ { depth = $1 } /^best=/ { print depth, $2, $4 }')
    printf 'search %-11s ours    %s\n' "${names[$i]}" "$ours"
    [[ -n $mobydam ]] || continue
    if [[ -n $side_by_side ]]; then
      wait
    else
      moby_search "$fen" "$work"
    fi
    line=$(awk -v ours="$ours" -v name="${names[$i]}" '
         /^reached depth=/ { split($2, d, "="); depth = d[2] }
         /^nodes total=/ { split($2, n, "="); nodes = n[2] }
         END {
           split(ours, o, "nps="); rate = nodes / 10
           printf "search %-11s mobydam depth=%s nodes=%s nps=%.0f   ours/mobydam=%.2f\n",
                  name, depth, nodes, rate, (rate > 0 ? o[2] / rate : 0)
         }' "$work/engine.log")
    echo "$line"
    ratios[$i]+="${line##*=} "
    # Both node rates in millions a second, for the ranges printed at the end.
    rates[$i]+="$(awk -v l="$ours" 'BEGIN { split(l, o, "nps="); printf "%.1f", o[2] / 1e6 }'):$(
      sed 's/.* nps=\([0-9]*\) .*/\1/' <<<"$line" | awk '{ printf "%.1f", $1 / 1e6 }') "
  done
done
if ((runs > 1)) && [[ -n $mobydam ]]; then
  for i in "${!positions[@]}"; do
    # The median of the runs' ratios (the mean of the middle two for an even count).
    printf 'search %-11s median of %d runs: ours/mobydam=%s (each: %s)\n' "${names[$i]}" "$runs" \
      "$(tr ' ' '\n' <<<"${ratios[$i]}" | grep . | sort -n |
        awk '{ r[NR] = $1 } END { printf "%.2f", (r[int((NR + 1) / 2)] + r[int(NR / 2) + 1]) / 2 }')" \
      "${ratios[$i]% }"
    # The spread of each engine's own rate over the runs: the day's machine moves both.
    printf 'search %-11s M nodes/s over %d runs: ours %s, mobydam %s\n' "${names[$i]}" "$runs" \
      "$(spread "${rates[$i]}" 1)" "$(spread "${rates[$i]}" 2)"
  done
fi
