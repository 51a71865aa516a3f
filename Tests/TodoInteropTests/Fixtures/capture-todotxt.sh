#!/bin/sh
# Produces Fixtures/todo.txt and Fixtures/done.txt with the real todo.txt CLI (Debian todotxt-cli).
# Usage: capture-todotxt.sh OUTPUT_FOLDER   (writes OUTPUT_FOLDER/todo.txt and OUTPUT_FOLDER/done.txt)
set -eu
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'export TODO_DIR=%s\nexport TODO_FILE="$TODO_DIR/todo.txt"\nexport DONE_FILE="$TODO_DIR/done.txt"\nexport REPORT_FILE="$TODO_DIR/report.txt"\n' "$work" > "$work/config"
t() { HOME=$work TODOTXT_CFG_FILE=$work/config todo-txt -f -p -d "$work/config" "$@" > /dev/null; }
t -t add "(A) Call the bank about the card +finance @phone due:2024-05-02"
t -t add "Buy milk @store due:2024-05-01"
t add "Plan the trip +vacation @home"
t -t add "Écrire à 祖母 ☕ +family url:https://example.com/a?b=c"
t -t add "Submit the report +work due:2024-04-30"
t -t add "Renew passport due:2024-06-15"
t pri 3 B
t pri 6 C
t do 5          # auto-archived: moves to done.txt, and "Renew passport" becomes item 5
t -a do 5       # -a: not archived, stays in todo.txt as an "x " line
cp "$work/todo.txt" "$out/todo.txt"
cp "$work/done.txt" "$out/done.txt"
