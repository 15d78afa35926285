#!/usr/bin/env bash
# Step mode in a real terminal (tmux): win the singleton-race challenge, undo, lose,
# quit, and check the terminal is left as it was. Also: NO_COLOR, a narrow terminal,
# Ctrl-C. Usage: .ci/step-terminal.sh [path/to/racelab]
set -euo pipefail
racelab=$(realpath "${1:-.build/debug/racelab}")
# A tmux server of our own (-L), and a new session started before the old one is
# killed: killing a server's last session stops it, and a session started at that
# moment fails with "server exited unexpectedly".
socket=racelab-step-$$
session=""
runs=0
tmux() { command tmux -L "$socket" "$@"; }
fail() { echo "step-terminal: FAIL: $1"; echo "--- screen ---"; tmux capture-pane -t "$session" -p || true; tmux kill-server 2>/dev/null || true; exit 1; }
keys() { for key in "$@"; do tmux send-keys -t "$session" "$key"; sleep 0.15; done; sleep 0.3; }
screen() { tmux capture-pane -t "$session" -p; }
expect() { screen | grep -qF -- "$1" || fail "expected '$1' on screen"; }
start() { # width, command
    local old=$session
    runs=$((runs + 1))
    session=racelab-step-$runs
    tmux new-session -d -s "$session" -x "$1" -y 60 "bash --norc --noprofile"
    [ -z "$old" ] || tmux kill-session -t "$old" 2>/dev/null || true
    tmux send-keys -t "$session" "PS1='ready\$ '; clear" Enter
    sleep 0.3
    tmux send-keys -t "$session" "$2; echo \"exit=\$?\"; stty -a | tr ' ' '\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\n' ' '; echo" Enter
    sleep 0.8
}

# Win, undo, lose, quit.
start 120 "$racelab step singleton-race --challenge"
expect "Goal: make two MySingle objects exist"
keys 2 3 2 3 2 3 2 3 2 3
expect "Challenge won: make two MySingle objects exist."
expect "Schedule: A B A B A B A B A B"
keys u
expect "undid step 10"
keys u u u u u u u u u
expect "undid step 1"
keys 2 2 2 2 2 3 3 3
expect "Finished without reaching the goal"
keys x
expect "the run is over"
keys q
sleep 0.5
expect "Challenge won: make two MySingle objects exist."
expect "Bye. Schedule so far: A A A A A B B B"
expect "exit=0"
expect "isig icanon echo"
screen | grep -q "Last steps" && fail "the step screen stayed after quitting (alternate screen not left)"

# Colour by default, none with NO_COLOR.
start 120 "$racelab step deadlock"
tmux capture-pane -t "$session" -p -e | grep -q $'\e\[3[23]m' || fail "no colour on a terminal"
keys q
start 120 "NO_COLOR=1 $racelab step deadlock"
tmux capture-pane -t "$session" -p -e | grep -q $'\e\[3[23]m' && fail "colour despite NO_COLOR"
keys q

# Narrow: threads one under another; unknown and blocked keys; Ctrl-C restores.
start 40 "$racelab step deadlock"
expect "[2] A"
keys z
expect "unknown key 'z'"
keys 2 3 3 3
expect "B can't run now"
tmux send-keys -t "$session" C-c
sleep 0.5
expect "exit=130"
expect "isig icanon echo"

# End of input (Ctrl-D) quits too.
start 100 "$racelab step array-mutation"
tmux send-keys -t "$session" C-d
sleep 0.5
expect "exit=0"
expect "isig icanon echo"

tmux kill-server
echo "step-terminal: ok"
