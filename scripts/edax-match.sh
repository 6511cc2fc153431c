#!/usr/bin/env bash
# Plays tabula against Edax's GTP mode (`-gtp`) through `tabula match`, at
# Othello, and counts the forfeits.
#
#   scripts/edax-match.sh EDAX [GAMES [MATCH OPTIONS...]]
#
# EDAX   the Edax binary (Edax 4.6, github.com/abulmo/edax-reversi, built
#        as its README says; this project does not build it).
# GAMES  games (default 10), played in pairs with the colours swapped,
#        each pair from its own four random opening plies.
# MATCH OPTIONS  passed on to `tabula match` as they are, e.g.
#        `--timemargin 2000` (more grace over tabula's move time on a busy
#        machine) or `--recover` (restart an engine that crashed or hung
#        and go on, rather than stop at its second crash).
#
# Environment:
#   EDAX_EVAL    Edax's evaluation weights (data/eval.dat of an Edax
#                release). Default: a file of zero weights made here, in
#                the format Edax reads (Edax refuses to start without one;
#                with zero weights it still plays legal moves, and solves
#                endgames exactly).
#   EDAX_LEVEL   Edax's search depth (`-level`, default 4).
#   TABULA       the tabula binary, runner and engine (default
#                target/release/tabula, built if missing).
#   TABULA_MOVETIME  tabula's time a move in milliseconds (default 100).
#   TABULA_WORDS     more engine words for tabula (e.g. set.search=alphabeta).
#   MATCH_OUT    folder for the record, Edax's stderr and the report
#                (default: a new /tmp/edax-match.XXXXXX).
#
# Edax gets no command ids (tabula match sends none to `proto=gtp`
# engines) and no time limit: it searches at its fixed level, and tabula
# match waits up to --timeout (30 s) for each reply. Prints tabula match's
# report and a last line `N games, N forfeits`; exits 0 only when every
# game was played and none was forfeited, 77 when Edax is not found.
set -euo pipefail

edax=${1:-}
games=${2:-10}
# Whatever follows is tabula match's.
match_options=("${@:3}")
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ -z $edax || ! -x $edax ]]; then
    echo "edax-match: give the Edax binary as the first argument" >&2
    exit 77
fi
edax=$(cd "$(dirname "$edax")" && pwd)/$(basename "$edax")

tabula=${TABULA:-$root/target/release/tabula}
if [[ ! -x $tabula ]]; then
    (cd "$root" && cargo build --release --quiet)
fi

out=${MATCH_OUT:-$(mktemp -d /tmp/edax-match.XXXXXX)}
mkdir -p "$out"

eval_file=${EDAX_EVAL:-$out/zero-eval.dat}
if [[ -z ${EDAX_EVAL:-} ]]; then
    # Edax's weight file: the words EDAX and EVAL (little-endian 32-bit,
    # so the bytes read XADE LAVE), version, release and build (32-bit
    # each), a date (a double), then 61 plies of 114364 16-bit weights.
    { printf 'XADELAVE'; head -c $((12 + 8 + 61 * 114364 * 2)) /dev/zero; } >"$eval_file"
fi

level=${EDAX_LEVEL:-4}
movetime=${TABULA_MOVETIME:-100}
# Edax runs in $out (it writes its book there when it quits).
# shellcheck disable=SC2086
"$tabula" match --game othello --games "$games" -j 1 --seed "${MATCH_SEED:-1}" \
    --random-plies 4 --timeout 30 \
    --record "$out/match.txt" "${match_options[@]}" \
    --engine "cmd=$edax -gtp -eval-file $eval_file -book-usage off -level $level -n 1" \
    name=edax proto=gtp "dir=$out" "stderr=$out/edax.err" \
    --engine "cmd=$tabula" name=tabula "movetime=$movetime" ${TABULA_WORDS:-} \
    | tee "$out/report.txt"

played=$(grep -c '^# game ' "$out/match.txt" || true)
forfeits=$(grep '^# game ' "$out/match.txt" | grep -c 'ending=forfeit' || true)
echo "edax-match: Edax level $level, tabula ${movetime} ms a move; files in $out"
echo "$played games, $forfeits forfeits"
((played == games && forfeits == 0))
