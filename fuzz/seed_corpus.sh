#!/usr/bin/env bash
# Builds the fuzz corpus from the golden transcripts (their `> ` lines, the
# commands) and the hand-written seeds in fuzz/seeds/. Run from anywhere:
#   fuzz/seed_corpus.sh            # writes fuzz/corpus/session/
# Input layout (see fuzz/src/lib.rs): byte 0 picks the game, byte 1 is the
# seed, then the command lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus/session
mkdir -p "$out"
games=(othello quoridor hearts wizard ninetynine)
for f in "$here"/../tests/transcripts/*.txt; do
  name=$(basename "$f" .txt)
  game=$(sed -n 's/^> *\(game\|[0-9]* *game\) \([a-z]*\).*/\2/p' "$f" | head -1)
  index=0
  for i in "${!games[@]}"; do [ "${games[$i]}" = "$game" ] && index=$i; done
  { printf "\\x$(printf %02x "$index")\\x01"; sed -n 's/^> //p' "$f"; } > "$out/transcript-$name"
  # The same commands in every other game too: many still apply.
  for i in "${!games[@]}"; do
    [ "$i" = "$index" ] && continue
    { printf "\\x$(printf %02x "$i")\\x02"; sed -n 's/^> //p' "$f" | grep -v '^game '; } > "$out/transcript-$name-${games[$i]}"
  done
done
cp "$here"/seeds/* "$out"/
echo "$(ls "$out" | wc -l) files in $out"
