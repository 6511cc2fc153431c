#!/usr/bin/env bash
# Plays a UGI match in the cutegames runner (kz04px/cutegames): tabula
# against tabula, or against another UGI engine, then counts forfeits and
# illegal moves.
#
#   scripts/cutegames-match.sh CUTEGAMES [GAME] [GAMES] [TC]
#
# CUTEGAMES  the cutegames binary (built from its source as its README
#            says; this project does not build it)
# GAME       othello (default) or quoridor
# GAMES      games to play (default 20)
# TC         milliseconds a move (default 100), a clock MAIN+INC in
#            milliseconds (e.g. 10000+100), or a search size with no
#            clock: nodes:N (iterations) or depth:N (alpha-beta plies,
#            with TABULA_ARGS="--set search=alphabeta")
#
# Openings: GAMES/2 positions a few random plies from the start, each
# played twice with the sides swapped, written as FEN for Othello (rows
# from row 1, `x` black, `o` white, digits for empties, then the side:
# `8/8/8/3ox3/3xo3/8/8/8 x` is the start), which other UGI Othello
# engines read; Quoridor's are tabula's position text (UGI has no
# Quoridor FEN).
#
# Prints the games played, the score, forfeits (games cutegames
# adjudicated: time, crash, game-over or result mismatch) and illegal
# moves (positions an engine refused); exits 1 unless every game was
# played out with none of either.
#
# Environment: TABULA (the engine binary; default: cargo build --release),
# TABULA_ARGS (extra engine arguments, e.g. "--set search=alphabeta"),
# OTHER (the second engine, a UGI program: its path, then its arguments,
# e.g. "/opt/nothello/nothello -u"; default: tabula again), OTHER_NAME
# (its name in the report; default: its program's name), TIMEOUT_BUFFER
# (ms a move may run over its time before cutegames forfeits it; default
# 100), OUT_DIR (default /tmp/cutegames-match), OPENING_SEED,
# OPENING_PLIES (default 4).
set -euo pipefail

cutegames=${1:?usage: $0 CUTEGAMES [GAME] [GAMES] [TC]}
game=${2:-othello}
games=${3:-20}
tc=${4:-100}
out=${OUT_DIR:-/tmp/cutegames-match}
here=$(cd "$(dirname "$0")/.." && pwd)
if [[ ! -x $cutegames || -d $cutegames ]]; then
    echo "cutegames-match: give the cutegames binary as the first argument" >&2
    exit 77
fi

if [[ $tc =~ ^([0-9]+)\+([0-9]+)$ ]]; then
    timecontrol="{ \"type\": \"clock\", \"time\": ${BASH_REMATCH[1]}, \"increment\": ${BASH_REMATCH[2]} }"
elif [[ $tc =~ ^nodes:([0-9]+)$ ]]; then
    timecontrol="{ \"type\": \"nodes\", \"nodes\": ${BASH_REMATCH[1]} }"
elif [[ $tc =~ ^depth:([0-9]+)$ ]]; then
    timecontrol="{ \"type\": \"depth\", \"ply\": ${BASH_REMATCH[1]} }"
elif [[ $tc =~ ^[0-9]+$ ]]; then
    timecontrol="{ \"type\": \"movetime\", \"time\": $tc }"
else
    echo "TC must be milliseconds a move, MAIN+INC, nodes:N or depth:N, not '$tc'" >&2
    exit 2
fi

case $game in
othello | quoridor) ;;
*)
    echo "game must be othello or quoridor, not '$game'" >&2
    exit 2
    ;;
esac

if [[ -z ${TABULA:-} ]]; then
    (cd "$here" && cargo build --release --quiet)
    TABULA=$here/target/release/tabula
fi

mkdir -p "$out"

# Openings: GAMES/2 positions a few random plies from the start (each
# played twice, the engines swapping sides), drawn by tabula's own
# legal_moves over GTP; reproducible (RANDOM is seeded). Othello's are
# written as FEN, Quoridor's as tabula's position text.
RANDOM=${OPENING_SEED:-1}
plies=${OPENING_PLIES:-4}
coproc GTP { "$TABULA" --game "$game" 2>/dev/null; }
ask() {
    local line reply=""
    echo "$1" >&"${GTP[1]}"
    while IFS= read -r line <&"${GTP[0]}"; do
        [[ -z $line ]] && break
        reply+=$line
    done
    [[ $reply == =* ]] || {
        echo "tabula refused '$1': $reply" >&2
        exit 1
    }
    reply=${reply#=}
    echo "${reply# }"
}
# Othello's position text (64 cells a1..h8 row by row, X O -, then the
# side X or O) as a FEN: rows from row 1, x o, runs of empties as digits.
fen() {
    local cells=${1% *} side=${1##* } row out="" i
    for ((i = 0; i < 64; i += 8)); do
        row=$(tr 'XO' 'xo' <<<"${cells:i:8}" | sed -E 's/-{8}/8/g; s/-{7}/7/g; s/-{6}/6/g;
            s/-{5}/5/g; s/-{4}/4/g; s/-{3}/3/g; s/-{2}/2/g; s/-/1/g')
        out+=${out:+/}$row
    done
    echo "$out $(tr 'XO' 'xo' <<<"$side")"
}
: >"$out/openings.txt"
for ((i = 0; i < (games + 1) / 2; i++)); do
    ask clear_board >/dev/null
    for ((p = 0; p < plies; p++)); do
        read -r -a moves <<<"$(ask legal_moves)"
        ((${#moves[@]})) || break
        ask "play ${moves[RANDOM % ${#moves[@]}]}" >/dev/null
    done
    if [[ $game == othello ]]; then
        fen "$(ask position)" >>"$out/openings.txt"
    else
        ask position >>"$out/openings.txt"
    fi
done
gtp_pid=$GTP_PID
echo quit >&"${GTP[1]}"
wait "$gtp_pid" 2>/dev/null || true
# cutegames passes "parameters" to the engine as its arguments.
args="--protocol ugi --game $game ${TABULA_ARGS:-}"
if [[ -n ${OTHER:-} ]]; then
    read -r other_path other_args <<<"$OTHER"
    other_name=${OTHER_NAME:-$(basename "$other_path")}
    second="{ \"name\": \"$other_name\", \"protocol\": \"UGI\", \"path\": \"$other_path\", \"parameters\": \"${other_args:-}\" }"
    event="tabula vs $other_name ($game)"
else
    second="{ \"name\": \"tabula-2\", \"protocol\": \"UGI\", \"path\": \"$TABULA\", \"parameters\": \"$args --seed 2\" }"
    event="tabula vs tabula ($game)"
fi
cat >"$out/settings.json" <<JSON
{
    "game": "generic",
    "games": $games,
    "concurrency": 1,
    "ratinginterval": 10,
    "verbose": false,
    "debug": true,
    "recover": false,
    "tournament": "roundrobin",
    "protocol": { "askturn": true, "gameover": "both" },
    "openings": { "path": "$out/openings.txt", "repeat": true, "shuffle": false },
    "adjudication": { "timeoutbuffer": ${TIMEOUT_BUFFER:-100}, "maxfullmoves": 500 },
    "timecontrol": $timecontrol,
    "options": {},
    "sprt": { "enabled": false },
    "pgn": { "enabled": true, "verbose": true, "override": true,
             "colour1": "P1", "colour2": "P2", "path": "$out/games.pgn",
             "event": "$event" },
    "engines": [
        { "name": "tabula-1", "protocol": "UGI", "path": "$TABULA", "parameters": "$args --seed 1" },
        $second
    ]
}
JSON

echo "cutegames: $games games of $game, time control $tc" >&2
rm -f "$out/games.pgn"
"$cutegames" --settings "$out/settings.json" >"$out/log.txt" 2>&1 || {
    tail -20 "$out/log.txt" >&2
    exit 1
}

# The debug log has every line sent and received; the PGN every game.
played=$(grep -c '^\[Result ' "$out/games.pgn" || true)
unfinished=$(grep -c '^\[Result "\*"\]' "$out/games.pgn" || true)
forfeits=$(grep -c '^\[Adjudicated ' "$out/games.pgn" || true)
illegal=$(grep -c 'info string error' "$out/log.txt" || true)
score=$(grep '^Score of' "$out/log.txt" | tail -1 | sed 's/ *\[.*//')
echo "cutegames $(grep -o 'Cute Games v[0-9.]*' "$out/log.txt" | head -1 | sed 's/Cute Games //'), $game, tc $tc: $played games played, $unfinished without a result"
echo "$score"
echo "forfeits (adjudicated games): $forfeits"
echo "illegal moves or refused positions: $illegal"
echo "log: $out/log.txt, games: $out/games.pgn"
[[ $played -eq $games && $unfinished -eq 0 && $forfeits -eq 0 && $illegal -eq 0 ]]
