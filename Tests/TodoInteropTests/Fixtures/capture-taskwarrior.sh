#!/bin/sh
# Writes what the real `task export` (Debian package taskwarrior) prints for a small list to
# OUTPUT_FILE, from a throwaway HOME/TASKRC/TASKDATA so the user's own tasks are never touched.
# Dates are entered in Asia/Tokyo (UTC+9, no DST): `due:2024-05-01` is stored as the UTC instant
# 20240430T150000Z, the case that shows due -> local calendar date is done right.
# With `recurring`, the list is recurring tasks instead: a weekly series with an end and a wait
# date and a monthly one from a month's last day, the first instance of each completed
# (taskwarrior makes the next one only when its date comes, so none is pending), a task with a
# wait date and one with a scheduled date and a due time.
# With `depends`, the list is tasks that depend on others: a chain (the fence waits for the
# paint, the party for the fence), a task waiting for two, one for a completed task and one
# for a deleted task.
# Usage: capture-taskwarrior.sh OUTPUT_FILE [recurring | depends]
set -eu
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME="$work" TASKRC="$work/taskrc" TASKDATA="$work/data" TZ=Asia/Tokyo
touch "$TASKRC"
mkdir -p "$TASKDATA"
t() { task rc.verbose=nothing rc.confirmation=off rc.recurrence.confirmation=off "$@" > /dev/null 2>&1; }
if [ "${2:-}" = recurring ]; then
    t add "Water the fern" due:2099-01-05 recur:weekly until:2099-03-01 wait:2099-01-03
    t add "Pay rent" due:2099-01-31 recur:monthly
    t add "Plant bulbs" due:2099-10-15 wait:2099-10-01
    t add "Call the plumber" due:2099-11-02T18:30 scheduled:2099-10-30
    t list || true  # any report makes the instances; it fails when it lists nothing
    t +INSTANCE description:"Water the fern" done  # waiting, so not status:pending
    t status:pending description:"Pay rent" done
    t list || true
elif [ "${2:-}" = depends ]; then
    t add "Buy paint"
    t add "Paint the fence" depends:1
    t add "Invite the neighbours" depends:2
    t add "Clean the brushes" depends:1,2
    t add "Borrow a ladder"
    t add "Fix the gutter" depends:5
    t add "Old plan"
    t add "Tidy the shed" depends:7
    t 5 done
    t 7 delete
else
    t add "Buy milk" due:2024-05-01
    t add "Write report" project:work +office
    t add '牛乳を買う ☕️ café "quoted"' due:2024-12-31
    t add "File taxes" due:2024-04-15
    t add "Call mom"
    t 4 done
    t 5 delete
    t add "Water plants" due:2099-06-01 wait:2099-05-25
    t add "Pay rent" due:2099-01-01 recur:yearly until:2100-06-01
fi
task export > "$out" 2> /dev/null
