#!/bin/sh
# Trains the Othello pattern evaluation and installs it as the built-in
# weights (see README, "Othello evaluation and midgame search").
#
#   scripts/train-othello.sh [GAMES] [THREADS]
#
# Self-play data goes to data/othello/positions.bin (kept out of git). The
# run is resumable: stop it at any time and run it again; games already in
# the file are kept, and the same seed gives the same file whatever the
# thread count. More games (on a bigger machine, just a larger GAMES) give
# better weights. The fitted file is copied to
# src/games/othello/weights.bin, which `cargo build` builds into the binary.
set -eu
GAMES=${1:-6000}
THREADS=${2:-$(nproc)}
cd "$(dirname "$0")/.."
cargo build --release
./target/release/tabula train-othello --data data/othello --games "$GAMES" \
  --threads "$THREADS" --seed 1 --solve-empties 16 --depth 4 --lambda 3 \
  --iterations 80 --out data/othello/weights.bin
cp data/othello/weights.bin src/games/othello/weights.bin
echo "installed src/games/othello/weights.bin; rebuild with cargo build --release"
