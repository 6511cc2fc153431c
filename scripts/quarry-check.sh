#!/usr/bin/env bash
# quarry-check.sh: a real-GUI check. Quarry (a GTK GUI for Go, Amazons and
# Reversi that drives GTP engines) registers tabula, and plays tabula (White)
# against GRhino's gtp-rhino (Black) at Reversi under each of Quarry's kinds of
# clock; a screenshot of each finished game is saved.
#
# Not part of `cargo test`. It installs nothing; it needs these Debian packages:
#
#     apt-get install -y quarry xvfb xdotool imagemagick grhino
#
# Usage: scripts/quarry-check.sh [path-to-tabula]    (default: target/release/tabula)
#
# Environment:
#   QUARRY_CHECK_OUT      folder for the results (default: a new /tmp/quarry-check.XXXXXX)
#   QUARRY_CHECK_CLOCKS   which games to play, any of: move canadian game
#                         (default: all three, in that order)
#                           move      Quarry's "Limited time per move", 2 s  (time_settings 0 2 1)
#                           canadian  "Canadian overtime", 20 s per 10 moves (time_settings 0 20 10)
#                           game      "Limited time for entire game", 1 min  (time_settings 60 0 0)
#   QUARRY_CHECK_TIMEOUT  seconds one game may last before it counts as hung (default 300)
#   QUARRY_CHECK_SKIP_REGISTRATION=1  skip the registration through Quarry's Preferences
#
# What it does, each step in a throwaway HOME (Quarry keeps its settings in
# ~/.quarry, a text file of [sections] with `Key = value` lines, which Quarry
# rewrites when it quits):
#   0. Registration, as a user does it: Preferences > GTP Engines > Add, with
#      tabula's path as the command line. Quarry then sends protocol_version,
#      name, version, list_commands and list_games, and writes a section
#      [GTP Engine "tabula 0.1.0"] whose "Supported games" must include Reversi
#      (Quarry's name for Othello). Any "* ERROR" Quarry logs about the
#      replies counts as a failure.
#   1. Per clock: ~/.quarry is written with both engines registered (the plain
#      tabula binary and /usr/games/gtp-rhino, as Quarry itself writes them)
#      and the new-game defaults (Reversi, White = tabula, Black = gtp-rhino,
#      the clock's type and values). Quarry starts under Xvfb with
#      --gtp-log (both GTP streams, engines' stderr included: tabula runs with
#      RUST_LOG=info, so its per-move timing lines are in that log). The
#      "New Game" dialog is driven with xdotool: Reversi, Computer for both
#      seats, Forward, the clock's fields typed in, Play.
#   2. The game is over when the game window stops changing for 6 s (Quarry's
#      clocks tick every second while a game runs). Then a screenshot of the
#      game window is saved, the game is saved as SGF (Ctrl+S: Quarry writes
#      RE[] and the time left after every move), the window is closed and
#      Quarry quits (which flushes its GTP logs).
#   3. Report per game: result, finished normally or not, time loss, tabula's
#      slowest genmove (its own log) and its time use as Quarry's clock saw it
#      (the SGF), the time_settings/time_left Quarry sent, and any `?` reply.
#
# Results in $QUARRY_CHECK_OUT/<clock>/: quarry-<clock>.png, game.sgf,
# gtp.<pid> (one per engine), quarry.stderr. Exit status: 0 when every game
# was played to its end with no time loss, no `?` reply and no protocol
# complaint; 1 when one was not; 2 when the check itself could not run.
set -uo pipefail

die() { echo "quarry-check: $*" >&2; exit 2; }

# ---------------------------------------------------------------- prerequisites
TABULA=${1:-target/release/tabula}
[[ -x $TABULA ]] || die "no executable tabula at '$TABULA' (build it: cargo build --release, or pass its path)"
TABULA=$(cd "$(dirname "$TABULA")" && pwd)/$(basename "$TABULA")
QUARRY=/usr/games/quarry
RHINO=/usr/games/gtp-rhino
missing=()
[[ -x $QUARRY ]] || missing+=(quarry)
[[ -x $RHINO ]] || missing+=(grhino)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
{ command -v import >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick; } || missing+=(imagemagick)
((${#missing[@]} == 0)) || die "missing Debian packages: ${missing[*]} (apt-get install -y ${missing[*]}; this script installs nothing)"

OUT=${QUARRY_CHECK_OUT:-$(mktemp -d /tmp/quarry-check.XXXXXX)}
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
CLOCKS=${QUARRY_CHECK_CLOCKS:-move canadian game}
GAME_TIMEOUT=${QUARRY_CHECK_TIMEOUT:-300}

# ------------------------------------------------------------ cleanup at exit
XVFB_PID=
QUARRY_PID=
stop_quarry() {
    [[ -n $QUARRY_PID ]] || return 0
    if kill -0 "$QUARRY_PID" 2>/dev/null; then
        local kids
        kids=$(pgrep -P "$QUARRY_PID" || true)
        kill "$QUARRY_PID" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$QUARRY_PID" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$QUARRY_PID" 2>/dev/null
        # the engines see their stdin close; any that linger are ended by id
        sleep 0.5
        for k in $kids; do kill "$k" 2>/dev/null; done
    fi
    wait "$QUARRY_PID" 2>/dev/null
    QUARRY_PID=
}
cleanup() {
    stop_quarry
    if [[ -n $XVFB_PID ]]; then kill "$XVFB_PID" 2>/dev/null; wait "$XVFB_PID" 2>/dev/null; fi
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# ------------------------------------------------------------------- X server
for n in $(seq 91 120); do
    [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] || { DISPLAY_NUM=$n; break; }
done
[[ -n ${DISPLAY_NUM:-} ]] || die "no free X display number in :91-:120"
Xvfb ":$DISPLAY_NUM" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
export DISPLAY=":$DISPLAY_NUM"
for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
xdotool getmouselocation >/dev/null 2>&1 || die "Xvfb did not start on $DISPLAY (see $OUT/xvfb.log)"

# ------------------------------------------------------------------- helpers
# xdotool, its chatter (Xvfb has no window manager: "XGetInputFocus returned ...") kept in a log
xdotool() { command xdotool "$@" 2>>"$OUT/xdotool.log"; }
# wait_window REGEX SECONDS: prints the id of the first window whose name matches
wait_window() {
    local t=$(( $2 * 5 )) w
    for _ in $(seq "$t"); do
        w=$(xdotool search --name "$1" 2>/dev/null | head -1)
        [[ -n $w ]] && { echo "$w"; return 0; }
        kill -0 "$QUARRY_PID" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}
# gone_window REGEX SECONDS: waits until no window's name matches
gone_window() {
    for _ in $(seq $(( $2 * 5 ))); do
        xdotool search --name "$1" >/dev/null 2>&1 || return 0
        sleep 0.2
    done
    return 1
}
click() { xdotool mousemove --window "$1" "$2" "$3" click 1; sleep 0.3; }
# set_field WINDOW X Y TEXT: replaces a spin button's text
set_field() {
    click "$1" "$2" "$3"
    xdotool key --window "$1" ctrl+a
    xdotool type --window "$1" --delay 30 "$4"
    xdotool key --window "$1" Tab
    sleep 0.2
}
# complaints FILE...: Quarry's "* ERROR"/"* WARNING" lines in its GTP logs, each with the command it answered
complaints() {
    awk '/^> /{c = substr($0, 3)} /^\* /{print "after `" c "`: " $0}' "$@" 2>/dev/null | sort | uniq -c | sed 's/^ */    /'
}
start_quarry() { # HOME_DIR LOGDIR
    HOME=$1 RUST_LOG=info "$QUARRY" --gtp-log="$2/gtp" --gtp-show-stderr >"$2/quarry.stderr" 2>&1 &
    QUARRY_PID=$!
    CC=$(wait_window '^Quarry Control Center$' 20) || { echo "Quarry did not open its Control Center (see $2/quarry.stderr)"; return 1; }
    sleep 0.5
}
quit_quarry() { # asks Quarry to quit (it then writes ~/.quarry and its logs); ends it after 10 s
    local cc
    cc=$(xdotool search --name '^Quarry Control Center$' 2>/dev/null | head -1)
    [[ -n $cc ]] && click "$cc" 97 236
    for _ in $(seq 50); do kill -0 "$QUARRY_PID" 2>/dev/null || break; sleep 0.2; done
    stop_quarry
}
shot() { # WINDOW FILE: a small PNG of one window
    import -window "$1" "$2.tmp.png" 2>/dev/null && convert "$2.tmp.png" -strip -colors 64 "$2" && rm -f "$2.tmp.png"
}

TAB_NAME=$(printf 'name\n' | "$TABULA" 2>/dev/null | sed -n 's/^= //p' | head -1)
TAB_VERSION=$(printf 'version\n' | "$TABULA" 2>/dev/null | sed -n 's/^= //p' | head -1)
[[ -n $TAB_NAME ]] || die "$TABULA does not answer 'name' over GTP"
# Quarry calls Othello "Reversi" and keeps the names it does not know as they are
TAB_GAMES=$(printf 'list_games\n' | "$TABULA" 2>/dev/null | sed -e 's/^= //' -e '/^$/d' \
    | sed -e 's/^Othello$/Reversi/' -e 's/.*/"&"/' | paste -sd, - | sed 's/,/, /g')
RHINO_NAME=$(printf 'name\n' | "$RHINO" 2>/dev/null | sed -n 's/^= //p' | head -1)
RHINO_VERSION=$(printf 'version\n' | "$RHINO" 2>/dev/null | sed -n 's/^= //p' | head -1)
[[ -n $RHINO_NAME ]] || die "$RHINO does not answer 'name' over GTP"
TAB_SCREEN="$TAB_NAME $TAB_VERSION"
RHINO_SCREEN="$RHINO_NAME $RHINO_VERSION"

FAILED=0
SUMMARY=()
START=$(date +%s)
echo "quarry-check: tabula = $TABULA ($TAB_SCREEN); results in $OUT"

# ------------------------------------------------- 0. registration through Quarry
if [[ ${QUARRY_CHECK_SKIP_REGISTRATION:-0} != 1 ]]; then
    d=$OUT/registration; mkdir -p "$d/home"
    verdict=
    if start_quarry "$d/home" "$d"; then
        click "$CC" 97 188                                     # Preferences
        if P=$(wait_window '^Preferences$' 10); then
            click "$P" 112 174                                 # GTP > GTP Engines
            click "$P" 682 87                                  # Add
            if N=$(wait_window '^New GTP Engine$' 10); then
                click "$N" 250 26                              # Command line
                xdotool type --window "$N" --delay 20 "$TABULA"
                click "$N" 460 163                             # Add: Quarry queries the engine
                gone_window '^New GTP Engine$' 20 || verdict="the New GTP Engine dialog did not close (Quarry did not accept the engine)"
                sleep 0.5
                shot "$P" "$d/preferences.png"
                click "$P" 700 533                             # Close
            else verdict="no New GTP Engine dialog"; fi
        else verdict="no Preferences window"; fi
        quit_quarry
    else verdict="Quarry did not start"; fi
    section=$(awk -v c="$TABULA" '/^\[/{s=$0} index($0, "\"" c "\"") && /^Command line/{print s}' "$d/home/.quarry" 2>/dev/null)
    games=$(awk -v s="$section" '$0==s{f=1;next} /^\[/{f=0} f && /^Supported games/{sub(/^[^=]*= */,""); print}' "$d/home/.quarry" 2>/dev/null)
    complaints=$(complaints "$d"/gtp.*)
    if [[ -z $verdict && -z $section ]]; then verdict="Quarry wrote no engine section for tabula"; fi
    if [[ -z $verdict && $games != *'"Reversi"'* ]]; then verdict="Quarry does not list tabula for Reversi (Supported games = $games)"; fi
    if [[ -z $verdict && -n $complaints ]]; then verdict="Quarry complained about tabula's replies"; fi
    echo
    echo "== registration (Preferences > GTP Engines > Add)"
    echo "  section:         ${section:-none}"
    echo "  supported games: ${games:-none}"
    [[ -n $complaints ]] && { echo "  Quarry's complaints in its GTP log (where: grep -n -B3 '^\\*' $d/gtp.*):"; echo "$complaints"; }
    if [[ -z $verdict ]]; then echo "  OK"; SUMMARY+=("registration: ok")
    else echo "  FAIL: $verdict"; SUMMARY+=("registration: FAIL ($verdict)"); FAILED=1; fi
fi

# ------------------------------------------------------------ 1.-3. the games
write_config() { # FILE TYPE GAME_LIMIT MOVE_LIMIT MAIN OVERTIME MOVES
    cat >"$1" <<EOF
# This is Quarry configuration file (written by scripts/quarry-check.sh).

[GTP Engine "$TAB_SCREEN"]
Screen name format	= "%n %v"
Name			= "$TAB_NAME"
Version			= "$TAB_VERSION"
Command line		= "$TABULA"
Supported games		= $TAB_GAMES

[GTP Engine "$RHINO_SCREEN"]
Screen name format	= "%n %v"
Name			= "$RHINO_NAME"
Version			= "$RHINO_VERSION"
Site configuration name	= "GRhino Reversi"
Command line		= "$RHINO"
Supported games		= "Reversi"

[New Game Parameters]
Game			= "Reversi"
White player name	= "White"
White is computer	= true
Engine playing white	= "$TAB_SCREEN"
Black player name	= "Black"
Black is computer	= true
Engine playing black	= "$RHINO_SCREEN"

[New Reversi Game Parameters]
Board size		= 8
Time control type	= $2
Keep track of total time = 0
Time limit for game	= $3
Time limit for move	= $4
Main time		= $5
Overtime period length	= $6
Moves per overtime	= $7
EOF
}

play_clock() { # CLOCK
    local clock=$1 d=$OUT/$1 label expect_ts W h prev same elapsed verdict=
    mkdir -p "$d/home"
    rm -f "$d"/gtp.* "$d/game.sgf"
    case $clock in
      move)     label="2 s per move";       expect_ts="0 2 1"
                write_config "$d/home/.quarry" 2 10:00 00:02 00:00 05:00 10 ;;
      canadian) label="20 s per 10 moves";  expect_ts="0 20 10"
                write_config "$d/home/.quarry" 3 10:00 00:15 00:00 00:20 10 ;;
      game)     label="1 minute per game";  expect_ts="60 0 0"
                write_config "$d/home/.quarry" 1 01:00 00:15 00:00 05:00 10 ;;
      *) echo "unknown clock '$clock' (move, canadian, game)"; FAILED=1; return ;;
    esac
    echo
    echo "== $clock: $label (tabula White, $RHINO_SCREEN Black)"
    local t0; t0=$(date +%s)
    if ! start_quarry "$d/home" "$d"; then FAILED=1; SUMMARY+=("$clock: FAIL (Quarry did not start)"); return; fi
    click "$CC" 97 26                                          # New Game
    if ! G=$(wait_window '^New Game$' 10); then verdict="no New Game dialog"; fi
    if [[ -z $verdict ]]; then
        click "$G" 37 137                                      # Game: Reversi
        click "$G" 37 234                                      # White: Computer (tabula, preselected)
        click "$G" 37 335                                      # Black: Computer (gtp-rhino, preselected)
        shot "$G" "$d/dialog-players.png"
        click "$G" 436 422                                     # Forward
        sleep 0.5
        case $clock in                                         # the clock's fields
          move)     set_field "$G" 250 194 00:02 ;;
          canadian) set_field "$G" 250 194 00:00; set_field "$G" 250 225 00:20; set_field "$G" 250 256 10 ;;
          game)     set_field "$G" 250 194 01:00 ;;
        esac
        shot "$G" "$d/dialog-clock.png"
        click "$G" 440 422                                     # Play
        W=$(wait_window ' vs\. ' 30) || verdict="no game window opened (see $d/quarry.stderr and any dialog in $d/stuck.png)"
    fi
    if [[ -z $verdict ]]; then
        local title; title=$(xdotool getwindowname "$W")
        [[ $title == "$TAB_SCREEN (W) vs. $RHINO_SCREEN"* ]] || verdict="unexpected players: $title"
    fi
    if [[ -z $verdict ]]; then
        prev=; same=0
        while :; do                                            # over when 3 looks 2 s apart agree
            sleep 2
            elapsed=$(( $(date +%s) - t0 ))
            if ! kill -0 "$QUARRY_PID" 2>/dev/null; then verdict="Quarry exited during the game"; break; fi
            h=$(import -window "$W" png:- 2>/dev/null | md5sum | cut -c1-32)
            if [[ $h == "$prev" ]]; then same=$((same + 1)); else same=0; fi
            prev=$h
            ((same >= 3)) && break
            if ((elapsed > GAME_TIMEOUT)); then verdict="game still running after ${GAME_TIMEOUT}s"; break; fi
        done
        shot "$W" "$d/quarry-$clock.png"
        # save the record: Ctrl+S, then the file name in the Save As dialog
        xdotool key --window "$W" ctrl+s
        if S=$(wait_window '^Save As' 10); then
            xdotool key --window "$S" ctrl+a
            xdotool type --window "$S" --delay 10 "$d/game.sgf"
            xdotool key --window "$S" Return
            for _ in $(seq 25); do [[ -s $d/game.sgf ]] && break; sleep 0.2; done
        fi
        # close the game window (a "save changes?" question is answered "Close without Saving")
        xdotool key --window "$W" ctrl+w
        sleep 1
        xdotool search --name ' vs\. ' >/dev/null 2>&1 && { xdotool key alt+w; sleep 1; }
    else
        import -window root "$d/stuck.png" 2>/dev/null
    fi
    quit_quarry
    report_game "$clock" "$label" "$expect_ts" "$d" "$verdict" $(( $(date +%s) - t0 ))
}

report_game() { # CLOCK LABEL EXPECTED_TIME_SETTINGS DIR VERDICT SECONDS
    local clock=$1 label=$2 expect_ts=$3 d=$4 verdict=$5 secs=$6 tlog rlog re moves ts tl q complaints asked=
    tlog=$(grep -l '^  = tabula' "$d"/gtp.* 2>/dev/null | head -1)
    rlog=$(grep -L '^  = tabula' "$d"/gtp.* 2>/dev/null | head -1)
    re=$(grep -o 'RE\[[^]]*\]' "$d/game.sgf" 2>/dev/null | sed 's/RE\[\(.*\)\]/\1/')
    moves=$(grep -o ';[BW]\[' "$d/game.sgf" 2>/dev/null | wc -l)
    echo "  played in ${secs}s; screenshot $d/quarry-$clock.png"
    if [[ -z $tlog ]]; then
        verdict=${verdict:-"no GTP log of tabula (Quarry never started it?)"}
    else
        ts=$(sed -n 's/^> time_settings //p' "$tlog" | head -1)
        echo "  Quarry sent tabula: time_settings ${ts:-none} (expected $expect_ts)"
        tl=$(sed -n 's/^> time_left white //p' "$tlog" | paste -sd'|' - | sed 's/|/, /g')
        echo "  time_left white (seconds stones), move by move: ${tl:-none}"
        # tabula's own view of each genmove (RUST_LOG=info lines on its stderr)
        # its move count and timing as tabula saw them (RUST_LOG=info: "genmove f4 ... in 2.031225915s")
        awk '/ genmove .* in [0-9.]+(s|ms|µs|ns)$/ {
                t = $NF; u = t; sub(/[^0-9.]+$/, "", t); sub(/^[0-9.]+/, "", u)
                t = t / (u == "ms" ? 1000 : u == "µs" ? 1e6 : u == "ns" ? 1e9 : 1)
                n++; if (t > max) { max = t; at = n }; s += t; list = list sprintf("%s%.3f", (n > 1 ? " " : ""), t)
             }
             END { if (n) printf "  tabula genmove, its own timing: %d replies, mean %.3fs, slowest %.3fs (its move %d)\n    %s\n", n, s/n, max, at, list }' "$tlog"
        asked=$(grep -c '^> genmove white' "$tlog")
        q=$( { grep -n '^  ? ' "$tlog" | sed 's/^/    tabula: /'; [[ -n $rlog ]] && grep -n '^  ? ' "$rlog" | sed 's/^/    gtp-rhino: /'; } )
        complaints=$(complaints "$d"/gtp.*)
        [[ -n $q ]] && { echo "  '?' replies:"; echo "$q"; verdict+="${verdict:+; }a '?' reply"; }
        [[ -n $complaints ]] && { echo "  Quarry's complaints in its GTP logs (grep -n -B3 '^\\*' $d/gtp.*):"; echo "$complaints"; verdict+="${verdict:+; }Quarry complained about a reply"; }
        [[ -n $ts && $ts != "$expect_ts" ]] && verdict+="${verdict:+; }time_settings $ts, not $expect_ts: the dialog was not driven as meant"
    fi
    if [[ -f $d/game.sgf ]]; then
        # time Quarry's clock charged each of tabula's moves, from WL[] (time left after the move)
        awk -v clock="$clock" '
            { s = s $0 }
            END {
                n = 0; prev = -1
                while (match(s, /W\[[a-z]*\]WL\[[0-9.]+\](OW\[[0-9]+\])?/)) {
                    m = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
                    sub(/.*WL\[/, "", m); wl = m; sub(/\].*/, "", wl)
                    ow = ""; if (m ~ /OW\[/) { ow = m; sub(/.*OW\[/, "", ow); sub(/\].*/, "", ow) }
                    n++; list = list sprintf("%s%s", (n > 1 ? " " : ""), wl (ow != "" ? "/" ow : ""))
                    if (wl + 0 < min || n == 1) { min = wl + 0; at = n }
                }
                if (n) printf "  Quarry clock, White time left after each move (s[/stones]): %s\n  least left: %.3fs at tabula move %d\n", list, min, at
            }' "$d/game.sgf"
        echo "  result: ${re:-none} after $moves moves"
    else
        echo "  result: unknown (no SGF saved)"
    fi
    case $re in
        B+T|B+Time) verdict="tabula (White) lost on time at its move ${asked:-?} (game move $((moves + 1)))${verdict:+; }$verdict" ;;
        W+T|W+Time) verdict="gtp-rhino (Black) lost on time at game move $((moves + 1))${verdict:+; }$verdict" ;;
        *+R|*+Resign) verdict="a resignation ($re)${verdict:+; }$verdict" ;;
        '') verdict="no result${verdict:+; }$verdict" ;;
    esac
    local who
    case $re in W+*) who="tabula (White) won";; B+*) who="gtp-rhino (Black) won";; 0|Draw|Void) who="draw";; *) who="?";; esac
    if [[ -z $verdict ]]; then
        echo "  OK: finished normally, $re, $who, no time loss"
        SUMMARY+=("$clock ($label): ok, $re, $who")
    else
        echo "  FAIL: $verdict (${re:-no result})"
        SUMMARY+=("$clock ($label): FAIL, $verdict (${re:-no result})")
        FAILED=1
    fi
}

for c in $CLOCKS; do play_clock "$c"; done

echo
echo "== summary ($(( $(date +%s) - START ))s, results in $OUT)"
for s in "${SUMMARY[@]}"; do echo "  $s"; done
exit $FAILED
