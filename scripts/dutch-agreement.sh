#!/usr/bin/env bash
# The club's Dutch system beside bbpPairings on many generated tournaments (9–150 players,
# 5–11 rounds): every round of each is paired by both from the same TRF, and the identical
# rounds and boards are counted. Needs ../shared/peers (bbpPairings is built from it).
# Usage: scripts/dutch-agreement.sh [tournaments (default 300)] [first seed (default 1000)]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
DUTCH_TOURNAMENTS="${1:-300}" DUTCH_SEED="${2:-1000}" \
  cargo test --quiet --test dutch_reference every_round_of_generated_tournaments -- --nocapture 2>&1 |
  grep -E 'identical|differ|seed|SKIPPED|test result'
