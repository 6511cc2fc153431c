#!/usr/bin/env bash
# Plays tabula against GRhino at Othello through GoGui's gogui-twogtp, and
# counts the games its results file marks as errors.
#
#   scripts/twogtp-grhino.sh TWOGTP GRHINO [GAMES]
#
# TWOGTP  gogui-twogtp: its jar (GoGui 1.6's lib/gogui-twogtp.jar, built
#         from github.com/Remi-Coulom/gogui with `ant`; this project does
#         not build it) or a gogui-twogtp launcher script.
# GRHINO  GRhino's GTP program (Debian's grhino package: /usr/games/gtp-rhino).
# GAMES   games (default 10), the colours alternating (`-alternate`).
#
# Environment:
#   GRHINO_LEVEL     GRhino's level (`-l`, default 3).
#   TABULA           the tabula binary (default target/release/tabula,
#                    built if missing).
#   TABULA_MOVETIME  tabula's time a move in milliseconds (default 100).
#   TWOGTP_OUT       folder for the games (SGF) and the results file
#                    (default: a new /tmp/twogtp-grhino.XXXXXX).
#
# tabula is started as a plain GTP engine (`tabula --game othello`), as
# any GTP controller starts it. Prints gogui-twogtp's results table and a
# last line `N games, N errors, tabula N wins`; exits 0 only when every
# game was played and none has ERR set, 77 when a program is not found.
set -euo pipefail

twogtp=${1:-}
grhino=${2:-}
games=${3:-10}
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ -z $twogtp || ! -f $twogtp ]]; then
    echo "twogtp-grhino: give gogui-twogtp (its jar or launcher) as the first argument" >&2
    exit 77
fi
if [[ -z $grhino || ! -x $grhino ]]; then
    echo "twogtp-grhino: give GRhino's gtp-rhino as the second argument" >&2
    exit 77
fi
if [[ $twogtp == *.jar ]]; then
    run_twogtp=(java -jar "$twogtp")
else
    run_twogtp=("$twogtp")
fi

tabula=${TABULA:-$root/target/release/tabula}
if [[ ! -x $tabula ]]; then
    (cd "$root" && cargo build --release --quiet)
fi
tabula=$(cd "$(dirname "$tabula")" && pwd)/$(basename "$tabula")

out=${TWOGTP_OUT:-$(mktemp -d /tmp/twogtp-grhino.XXXXXX)}
mkdir -p "$out"
level=${GRHINO_LEVEL:-3}
movetime=${TABULA_MOVETIME:-100}

"${run_twogtp[@]}" -auto -force -alternate -size 8 -komi 0 -games "$games" \
    -black "$grhino -l $level" \
    -white "$tabula --game othello --set movetime=$movetime" \
    -sgffile "$out/game" 2>"$out/twogtp.err" || true

# The results file: `#` header lines, then a line a game with tab-separated
# columns GAME RES_B RES_W RES_R ALT DUP LEN TIME_B TIME_W CPU_B CPU_W ERR
# ERR_MSG; ALT 1 when the colours were swapped (tabula black). Results of
# a swapped game are written as if the programs had their first colours,
# so W+ is a win of the -white program, tabula, in every game.
results=$out/game.dat
if [[ ! -f $results ]]; then
    echo "twogtp-grhino: no results file; gogui-twogtp said:" >&2
    cat "$out/twogtp.err" >&2
    exit 1
fi
grep -v '^#' "$results"
awk -F'\t' '
    /^#/ { next }
    {
        games++
        if ($12 == 1) errors++
        # The result tabula gives (the same as GRhino in a clean game).
        if ($3 ~ /^W\+/) wins++
    }
    END {
        printf "twogtp-grhino: GRhino level %s, tabula %s ms a move; files in %s\n", level, movetime, out
        printf "%d games, %d errors, tabula %d wins\n", games, errors, wins
        exit !(games == want && errors == 0)
    }' level="$level" movetime="$movetime" out="$out" want="$games" "$results"
