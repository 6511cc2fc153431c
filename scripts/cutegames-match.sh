#!/usr/bin/env bash
# Builds the cutegames match runner (kz04px/cutegames) from a source folder
# and plays tabula against tabula over UGI, then counts forfeits and
# illegal moves.
#
#   scripts/cutegames-match.sh CUTEGAMES_SRC [GAME] [GAMES] [MOVETIME_MS]
#
# CUTEGAMES_SRC  a checkout of https://github.com/kz04px/cutegames
# GAME           othello (default) or quoridor
# GAMES          games to play (default 20)
# MOVETIME_MS    time per move (default 100)
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
# BUILD_DIR (default /tmp/cutegames-build), OUT_DIR (default
# /tmp/cutegames-match).
set -euo pipefail

src=${1:?usage: $0 CUTEGAMES_SRC [GAME] [GAMES] [MOVETIME_MS]}
game=${2:-othello}
games=${3:-20}
movetime=${4:-100}
build=${BUILD_DIR:-/tmp/cutegames-build}
out=${OUT_DIR:-/tmp/cutegames-match}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)

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
    "adjudication": { "timeoutbuffer": 100, "maxfullmoves": 500 },
    "timecontrol": { "type": "movetime", "movetime": $movetime },
    "options": {},
    "sprt": { "enabled": false },
    "pgn": { "enabled": true, "verbose": true, "override": true,
             "colour1": "P1", "colour2": "P2", "path": "$out/games.pgn",
             "event": "tabula vs tabula ($game)" },
    "engines": [
        { "name": "tabula-1", "protocol": "ugi", "path": "$TABULA", "parameters": "$args --seed 1" },
        { "name": "tabula-2", "protocol": "ugi", "path": "$TABULA", "parameters": "$args --seed 2" }
    ]
}
JSON

echo "cutegames: $games games of $game at ${movetime} ms a move" >&2
"$build/cutegames" --settings "$out/settings.json" >"$out/log.txt" 2>&1 || {
    tail -20 "$out/log.txt" >&2
    exit 1
}
