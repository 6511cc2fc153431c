#!/usr/bin/env bash
# Checks tabula's GGF export against Edax: plays short Othello matches with
# `tabula match --export ggf=FILE jsonl=FILE`, loads every exported game in
# Edax's own shell (`load FILE.ggf`), and compares the board Edax ends on
# with tabula's record of the game.
#
#   scripts/check-ggf-edax.sh [GAMES]
#
# GAMES  games per match (default 6); three matches are played: one from
#        the start with random opening plies, one from positions (GGF `BO`
#        not the start, one with white to move), and one adjudicated by
#        tabula's solver at 10 empties (`--adjudicate solve=10`).
#
# Environment:
#   EDAX       the Edax binary (default: `edax`, or `lEdax-*` on PATH):
#              Edax 4.6 (github.com/abulmo/edax-reversi), built as its
#              README says; this project does not build it.
#   EDAX_EVAL  Edax's evaluation weights (data/eval.dat of an Edax release).
#              Default: a file of zero weights made here (loading a game
#              evaluates nothing; Edax only refuses to start without one).
#   TABULA     the tabula binary (default: target/release/tabula, built if
#              missing).
#   CHECK_OUT  folder for the games and Edax's output (default: a new
#              /tmp/check-ggf-edax.XXXXXX).
#
# A game is "loaded" when Edax's board after `load` has every disc the
# game placed (Edax stops at the first move it refuses, and a GGF it
# cannot parse leaves the start); it "matches" when the game ended
# normally and Edax's board is tabula's (the game replayed in tabula), its
# disc counts are tabula's scores, Edax says the game is over, and the GGF
# `RE` margin is Edax's board's; an adjudicated game matches when Edax's
# exact solve of its last position (`go` at level 60) gives RE's margin.
# Prints one line per game and a summary `N games, N loaded, N
# mismatches`; exits 0 only when every game loaded and none mismatched, 77
# when Edax is not found.
set -euo pipefail

games=${1:-6}
root=$(cd "$(dirname "$0")/.." && pwd)

edax=${EDAX:-}
if [[ -z $edax ]]; then
    edax=$(command -v edax || true)
    if [[ -z $edax ]]; then
        for dir in ${PATH//:/ }; do
            for f in "$dir"/lEdax-*; do
                [[ -x $f ]] && { edax=$f; break 2; }
            done
        done
    fi
fi
if [[ -z $edax || ! -x $edax ]]; then
    echo "check-ggf-edax: no Edax binary (set EDAX or put edax on PATH)" >&2
    exit 77
fi
edax=$(cd "$(dirname "$edax")" && pwd)/$(basename "$edax")

tabula=${TABULA:-$root/target/release/tabula}
if [[ ! -x $tabula ]]; then
    (cd "$root" && cargo build --release --quiet)
fi

out=${CHECK_OUT:-$(mktemp -d /tmp/check-ggf-edax.XXXXXX)}
mkdir -p "$out/data"
echo "check-ggf-edax: $edax, tabula $tabula, files in $out"

eval_file=${EDAX_EVAL:-$out/zero-eval.dat}
if [[ -z ${EDAX_EVAL:-} ]]; then
    # Edax's weight file: the words EDAX and EVAL (little-endian 32-bit,
    # so the bytes read XADE LAVE), version, release and build (32-bit
    # each), a date (a double), then 61 plies of 114364 16-bit weights.
    { printf 'XADELAVE'; head -c $((12 + 8 + 61 * 114364 * 2)) /dev/zero; } >"$eval_file"
fi

# Positions as `setboard` takes them, from tabula itself: one with white to
# move, one with black to move.
position() {
    local moves=$1 colour=black
    {
        echo "game othello"
        for m in $moves; do
            echo "play $colour $m"
            [[ $colour == black ]] && colour=white || colour=black
        done
        echo "position"
    } | "$tabula" 2>/dev/null | sed -nE 's/^= ([-XO]{64} [XO])$/\1/p' | tail -n 1
}
{
    position "f5 d6 c3"
    position "f5 f6 e6 f4"
    position "f5 d6 c5 f4 e3"
} >"$out/positions.txt"

play_match() {
    local name=$1
    shift
    "$tabula" match --game othello --games "$games" -j 1 --seed 7 --depth 1 --quiet \
        --no-record "$@" \
        --export "ggf=$out/$name.ggf" "jsonl=$out/$name.jsonl" \
        --engine "cmd=$tabula" name=ab set.search=alphabeta \
        --engine "cmd=$tabula" name=rules set.search=rules >/dev/null
}
play_match start --random-plies 4
play_match positions --openings "$out/positions.txt" format=positions
play_match adjudicated --random-plies 4 --adjudicate solve=10

# tabula's own board at the end of a GGF game: its BO set with `setboard`,
# its moves played, then `position` (X black, O white), written as Edax
# draws a board (* black).
tabula_board() {
    local ggf=$1 bo side
    bo=$(sed -nE 's/.*BO\[8 ([-*O]{64}) ([*O])\].*/\1/p' <<<"$ggf")
    side=$(sed -nE 's/.*BO\[8 [-*O]{64} ([*O])\].*/\1/p' <<<"$ggf")
    {
        echo "game othello"
        echo "setboard $(tr '*' X <<<"$bo") $(tr '*' X <<<"$side")"
        grep -oE '[BW]\[[A-Za-z0-9]+\]' <<<"$ggf" | sed -E \
            -e 's/^B\[/play black /' -e 's/^W\[/play white /' -e 's/\]$//' \
            -e 's/ PA$/ pass/' | tr 'A-H' 'a-h'
        echo "position"
    } | "$tabula" 2>/dev/null | sed -nE 's/^= ([-XO]{64}) [XO]$/\1/p' | tail -n 1 | tr X '*'
}

total=0 loaded=0 mismatches=0
check() {
    local name=$1 i=0 ggf
    while IFS= read -r ggf; do
        i=$((i + 1))
        total=$((total + 1))
        local json file
        json=$(sed -n "${i}p" "$out/$name.jsonl")
        file=$name-$i.ggf
        printf '%s\n' "$ggf" >"$out/$file"
        # Commands go in before the end of input: `quit` would drop the
        # `load` still queued in Edax's input thread, the end of input
        # does not.
        (cd "$out" && printf 'load %s\n' "$file" |
            "$edax" -eval-file "$eval_file" -book-usage off -level 1 -n 1 \
                >"$file.edax" 2>"$file.err")
        # Edax's last board: rows 1-8, with Black's disc count on row 2
        # and White's on row 7.
        local board black white over
        board=$(grep -E '^[1-8] ([-*O.] ){8}[1-8]' "$out/$file.edax" | tail -n 8 |
            cut -c3-17 | tr -d ' \n')
        black=$(grep -E '^2 ' "$out/$file.edax" | tail -n 1 | sed -nE 's/.* ([0-9]+) discs.*/\1/p')
        white=$(grep -E '^7 ' "$out/$file.edax" | tail -n 1 | sed -nE 's/.* ([0-9]+) discs.*/\1/p')
        over=no
        [[ $(tail -n 6 "$out/$file.edax") == *"Game Over"* ]] && over=yes
        # Discs the game should have: its start's plus one a placed move.
        local start placed want
        start=$(sed -nE 's/.*BO\[8 ([-*O]{64}) [*O]\].*/\1/p' <<<"$ggf" | tr -cd '*O' | wc -c)
        placed=$(grep -oE '[BW]\[[A-H][1-8]' <<<"$ggf" | wc -l)
        want=$((start + placed))
        local verdict=ok
        if [[ ${#board} -ne 64 || -z $black || -z $white ]]; then
            verdict="no board from Edax"
        elif ((black + white != want)); then
            verdict="not loaded: Edax has $((black + white)) discs, the game placed $want"
        else
            loaded=$((loaded + 1))
        fi
        local ending scores result
        ending=$(sed -nE 's/.*"ending":"([a-z]+)".*/\1/p' <<<"$json")
        scores=$(sed -nE 's/.*"scores":\[([0-9.]+),([0-9.]+)\].*/\1 \2/p' <<<"$json")
        result=$(sed -nE 's/.*RE\[([-+0-9.]+)\].*/\1/p' <<<"$ggf")
        if [[ $verdict == ok && $ending == normal ]]; then
            local margin=$((black - white)) empties=$((64 - black - white))
            ((margin > 0)) && margin=$((margin + empties))
            ((margin < 0)) && margin=$((margin - empties))
            if [[ $(tr . - <<<"$board") != "$(tabula_board "$ggf")" ]]; then
                verdict="mismatch: Edax's board is not tabula's"
            elif [[ $scores != "$black $white" ]]; then
                verdict="mismatch: Edax $black-$white, tabula $scores"
            elif [[ $over != yes ]]; then
                verdict="mismatch: Edax does not see the game over"
            elif [[ $(printf '%+d.000' "$margin") != "$result" ]]; then
                verdict="mismatch: RE[$result], Edax's board $margin"
            fi
        fi
        if [[ $verdict == ok && $ending == adjudicated ]]; then
            # The solved margin: Edax solves the position exactly (level
            # 60 searches to the end) and its score, for the side to move,
            # must be RE's.
            local solved turn
            solved=$(cd "$out" && printf 'load %s\ngo\n' "$file" |
                "$edax" -eval-file "$eval_file" -book-usage off -level 60 -n 1 2>/dev/null |
                tee "$file.solve" | sed -nE 's/^ +[0-9]+ +([-+][0-9]+) .*/\1/p' | sed -n 1p)
            # The side to move on the last board before the search.
            turn=$(sed '/depth|score/q' "$out/$file.solve" | grep -oE "(Black|White)'s turn" | tail -n 1)
            # Edax writes scores with a sign and two digits (`-08`).
            if [[ -n $solved ]]; then
                solved=$((${solved:0:1}10#${solved:1}))
                if [[ $turn == White* ]]; then solved=$((-solved)); fi
            fi
            if [[ -z $solved || $(printf '%+d.000' "$solved") != "$result" ]]; then
                verdict="mismatch: RE[$result], Edax solves ${solved:-nothing}"
            else
                verdict="ok (adjudicated: Edax solves the same margin)"
            fi
        elif [[ $verdict == ok && $ending != normal ]]; then
            verdict="ok (loaded; $ending, no final board to compare)"
        fi
        [[ $verdict == mismatch* ]] && mismatches=$((mismatches + 1))
        echo "$file: Edax $black-$white ($over game over), tabula ${scores:-?} ($ending) RE[$result]: $verdict"
    done <"$out/$name.ggf"
}
check start
check positions
check adjudicated
echo "$total games, $loaded loaded, $mismatches mismatches"
((total > 0 && loaded == total && mismatches == 0))
