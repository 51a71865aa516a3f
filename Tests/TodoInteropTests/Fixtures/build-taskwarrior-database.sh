#!/bin/sh
# Builds a taskwarrior database in the folder FOLDER with the real `task` (2.6), as a user of
# some years has one, and writes its `task export` to FOLDER/export.json: projects with a
# hierarchy, tags, priorities, annotations, three user-defined attributes (a string, a number,
# a date) declared in the rc, a weekly series (its template and instances: one done, one
# deleted, one annotated), wait, scheduled (at a time of day), depends, until, start, a deleted
# and a completed task, and one task brought in by `task import`. Everything stays in FOLDER
# (HOME, TASKRC, TASKDATA), never the user's own tasks; dates are typed in Asia/Tokyo.
# Usage: build-taskwarrior-database.sh FOLDER
work=$1
export HOME="$work" TASKRC="$work/taskrc" TASKDATA="$work/data" TZ=Asia/Tokyo
mkdir -p "$TASKDATA"
cat > "$TASKRC" <<'RC'
confirmation=off
recurrence.confirmation=off
verbose=nothing
uda.client.type=string
uda.client.label=Client
uda.estimate.type=numeric
uda.estimate.label=Estimate
uda.reviewed.type=date
uda.reviewed.label=Reviewed
RC
t() { task "$@" > /dev/null 2>&1; }
uuid() { task "$@" _uuids 2> /dev/null | head -n 1; }
t add "Write the report" project:Work.ClientA +office +writing priority:H client:ACME estimate:3 reviewed:2099-01-02 due:2099-05-01
t add "Buy milk" project:Errands +errands priority:L
t add "Review budget" project:Work priority:M wait:2099-04-18 due:2099-04-25
t add "Plan the trip" project:Home scheduled:2099-04-20T09:30 due:2099-04-25 +travel
t add "Water the plants" recur:weekly due:today-15d until:2099-06-01 project:Home.Garden +chores client:Self
milk=$(uuid description:"Buy milk")
t add "Paint the fence" depends:"$milk" until:2099-12-01 priority:M estimate:2.5
t add "Old idea" project:Someday
t add "Done thing" +errands
t add "Active thing" project:Work
t description:"Write the report" annotate "Called the client"
t description:"Old idea" delete
t description:"Done thing" done
t description:"Active thing" start
t list
t +INSTANCE imask:0 done
t +INSTANCE imask:1 delete
t +INSTANCE imask:2 annotate "Twice this week"
cat > "$work/old.json" <<'JSON'
[{"uuid":"7c1f0b9e-4a39-4f55-9a41-0d4a6f7b2c11","description":"File taxes","status":"completed","entry":"20240101T010000Z","end":"20240415T080000Z","project":"Home.Admin","tags":["paperwork"],"priority":"H","client":"Self","annotations":[{"entry":"20240410T023000Z","description":"Sent the forms"}]}]
JSON
t import "$work/old.json"
task export > "$work/export.json" 2> /dev/null
