#!/usr/bin/env bash
# Builds the cutegames match runner (kz04px/cutegames) from a source folder
# and plays tabula against tabula over UGI, then counts forfeits and
# illegal moves.
#
#   scripts/cutegames-match.sh CUTEGAMES_SRC [GAME] [GAMES] [TC]
#
# CUTEGAMES_SRC  a checkout of https://github.com/kz04px/cutegames
# GAME           othello (default) or quoridor
# GAMES          games to play (default 20)
# TC             milliseconds a move (default 100), a clock MAIN+INC in
#                milliseconds (e.g. 10000+100), or a search size with no
#                clock: nodes:N (iterations) or depth:N (alpha-beta plies,
#                with TABULA_ARGS="--set search=alphabeta")
#
# Prints the games played, the score, forfeits (games cutegames
# adjudicated: time, crash, game-over or result mismatch) and illegal
# moves (positions an engine refused); exits 1 unless every game was
# played out with none of either.
#
# cutegames' CMake fetches its libraries (nlohmann/json, CLI11, termcolor,
# doctest, libataxx, libchess) from GitHub. Without a network, put
# checkouts of them in one folder (subfolders json, CLI11, termcolor,
# doctest, libataxx, libchess) and name it in CUTEGAMES_DEPS.
# Needs cmake, a C++20 compiler and Boost (Debian: apt-get install cmake
# libboost-dev libboost-filesystem-dev).
#
# Environment: TABULA (the engine binary; default: cargo build --release),
# TABULA_ARGS (extra engine arguments, e.g. "--set search=alphabeta"),
# TIMEOUT_BUFFER (ms a move may run over its time before cutegames
# forfeits it; default 100), BUILD_DIR (default /tmp/cutegames-build), OUT_DIR (default
# /tmp/cutegames-match).
set -euo pipefail

src=${1:?usage: $0 CUTEGAMES_SRC [GAME] [GAMES] [TC]}
game=${2:-othello}
games=${3:-20}
tc=${4:-100}
build=${BUILD_DIR:-/tmp/cutegames-build}
out=${OUT_DIR:-/tmp/cutegames-match}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)

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

deps=()
if [[ -n ${CUTEGAMES_DEPS:-} ]]; then
    for pair in json:JSON doctest:DOCTEST CLI11:CLI11 termcolor:TERMCOLOR \
        libataxx:LIBATAXX libchess:LIBCHESS; do
        dir=${pair%%:*}
        name=${pair#*:}
        [[ -d $CUTEGAMES_DEPS/$dir ]] || {
            echo "CUTEGAMES_DEPS has no $dir folder" >&2
            exit 2
        }
        deps+=("-DFETCHCONTENT_SOURCE_DIR_$name=$CUTEGAMES_DEPS/$dir")
    done
    deps+=(-DFETCHCONTENT_FULLY_DISCONNECTED=ON)
fi

if [[ ! -x $build/cutegames ]]; then
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DJSON_BuildTests=OFF -DCLI11_BUILD_TESTS=OFF -DCLI11_BUILD_EXAMPLES=OFF \
        "${deps[@]}" >&2
    cmake --build "$build" --target cutegames -j "${JOBS:-2}" >&2
fi

if [[ -z ${TABULA:-} ]]; then
    (cd "$here" && cargo build --release --quiet)
    TABULA=$here/target/release/tabula
fi

mkdir -p "$out"

# Openings: GAMES/2 positions a few random plies from the start (each
# played twice, the engines swapping sides), written as the game's
# position text, which tabula's UGI takes as a FEN. Drawn by tabula's
# own legal_moves over GTP; reproducible (RANDOM is seeded).
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
: >"$out/openings.txt"
for ((i = 0; i < (games + 1) / 2; i++)); do
    ask clear_board >/dev/null
    for ((p = 0; p < plies; p++)); do
        read -r -a moves <<<"$(ask legal_moves)"
        ((${#moves[@]})) || break
        ask "play ${moves[RANDOM % ${#moves[@]}]}" >/dev/null
    done
    ask position >>"$out/openings.txt"
done
gtp_pid=$GTP_PID
echo quit >&"${GTP[1]}"
wait "$gtp_pid" 2>/dev/null || true
# cutegames passes "parameters" to the engine as its arguments.
args="--protocol ugi --game $game ${TABULA_ARGS:-}"
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
             "event": "tabula vs tabula ($game)" },
    "engines": [
        { "name": "tabula-1", "protocol": "UGI", "path": "$TABULA", "parameters": "$args --seed 1" },
        { "name": "tabula-2", "protocol": "UGI", "path": "$TABULA", "parameters": "$args --seed 2" }
    ]
}
JSON

echo "cutegames: $games games of $game, time control $tc" >&2
rm -f "$out/games.pgn"
"$build/cutegames" --settings "$out/settings.json" >"$out/log.txt" 2>&1 || {
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
