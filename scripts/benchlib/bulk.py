"""Many todos at once (issue 37): a bulk `todo done` by filter, and what a full undo history costs.
  done@SIZE      whole `todo --tag chores done --yes` on a file of 30,000 user-like todos (userdata.py:
                 priorities, tags, notes, repeats, eight lists; without subtasks, whose parents `todo
                 done` would not complete in a pipe) where +chores, added to every sixth undone todo
                 that does not repeat and has no start date, selects about 3,000 todos, each round on a fresh copy of the file
                 (copied before the round, untimed), vs. the sqlite3 shell running the equivalent UPDATE
                 (the same four columns, the same todos) on its own fresh copy: p50 ms of 15 rounds
                 each, alternating (--quick 9). Goal: at most 200 ms, absolute (issue 37's figure).
  add_history    whole `todo add` on that file with a full undo history (1,000 steps: each add
                 forgets the oldest) vs. the same add with an empty history, alternating: p50 ms of 41
                 runs each (--quick 21). Goal: at most 1.2x: a full history costs a command the step it
                 forgets, not the history's length.
--smoke: 300 todos (30 selected), 2 rounds; 3 adds.
"""
import os, shutil
from types import SimpleNamespace

from . import userdata
from .figures import figure, size_label, table
from .proc import log, run, wall_ms
from .stats import p50

NAME = "bulk"
SETTINGS = {"full": SimpleNamespace(size=30_000, rounds=15, adds=41),
            "quick": SimpleNamespace(size=30_000, rounds=9, adds=21),
            "smoke": SimpleNamespace(size=300, rounds=2, adds=3)}
DONE_GOAL_MS = 200
HISTORY_GOAL = 1.2
DEPTH = 1000

# The tag the bulk done selects, on every sixth undone todo that does not repeat (a repeating one
# would move to its next date, not be done) and has no start date (`todo` leaves out those not
# started yet, and a verb after a filter acts on what it shows): a tag of no other todo (not in
# userdata's vocabulary).
CHORES_SQL = """
UPDATE todos SET tags = trim(tags || ' +chores')
WHERE id % 6 = 0 AND done = 0 AND repeat_rule IS NULL AND start_date IS NULL;
"""
CHORES = "(' ' || tags || ' ') LIKE '% +chores %'"

# What `todo done` writes to each todo it completes, for the same todos: the shell's baseline.
UPDATE_SQL = """
UPDATE todos SET done = 1, status = 'completed', percent = 100,
                 completed = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
WHERE done = 0 AND (' ' || tags || ' ') LIKE '% +chores %';
"""

# A full history: the real step of one `todo add`, copied until there are DEPTH steps.
HISTORY_SQL = """
WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < {depth})
INSERT INTO todo_history (command, changeset) SELECT 'add', (SELECT changeset FROM todo_history LIMIT 1) FROM n;
"""


def fresh(source, path):
    """A copy of `source` at `path`, with no log or shared-memory file of an earlier round."""
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    shutil.copyfile(source, path)


def scalar(path, sql):
    return int(run(["sqlite3", path, sql]).strip())


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    label = size_label(s.size)
    source = os.path.join(ctx.work, f"bulk-{label}.sqlite")
    userdata.copy(ctx, todo, source, s.size, subtasks=False)
    run(["sqlite3", source, CHORES_SQL])
    selected = scalar(source, f"SELECT count(*) FROM todos WHERE done = 0 AND {CHORES}")

    log(f"bench: bulk: todo --tag chores done --yes over {s.size:,} todos ({selected:,} selected) vs. the "
        f"sqlite3 shell's UPDATE, {s.rounds} rounds...")
    ours_path, theirs_path = source + ".todo", source + ".shell"
    ours, theirs = [], []
    for _ in range(s.rounds):
        fresh(source, ours_path)
        ours.append(wall_ms([todo, "--no-config", "--db", ours_path, "--tag", "chores", "done", "--yes"]))
        fresh(source, theirs_path)
        theirs.append(wall_ms(["sqlite3", theirs_path, UPDATE_SQL]))
    # Both changed the same todos, and todo recorded them as one undo step.
    for path in (ours_path, theirs_path):
        done = scalar(path, f"SELECT count(*) FROM todos WHERE done = 1 AND {CHORES}")
        if done != selected:
            raise RuntimeError(f"bulk: {path} has {done} chores done, not {selected}")
    if scalar(ours_path, "SELECT count(*) FROM todo_history") != 1:
        raise RuntimeError("bulk: todo done did not record one undo step")
    step_bytes = scalar(ours_path, "SELECT length(changeset) FROM todo_history")
    figures = [figure(f"bulk.done@{label}", p50(ours), "ms", stat=f"p50 of {s.rounds}", baseline=p50(theirs),
                      baseline_name="sqlite3 shell UPDATE", goal=DONE_GOAL_MS, goal_of="value")]

    log(f"bench: bulk: todo add with a full undo history ({DEPTH:,} steps) vs. an empty one, {s.adds} runs...")
    empty_path, full_path = source + ".empty", source + ".full"
    fresh(source, empty_path)
    fresh(source, full_path)
    run([todo, "--no-config", "--db", full_path, "add", "The first step"])
    run(["sqlite3", full_path, HISTORY_SQL.format(depth=DEPTH)])
    if scalar(full_path, "SELECT count(*) FROM todo_history") != DEPTH:
        raise RuntimeError(f"bulk: the history is not {DEPTH} steps long")
    full, empty = [], []
    for index in range(s.adds):
        full.append(wall_ms([todo, "--no-config", "--db", full_path, "add", f"Added with history {index}"]))
        empty.append(wall_ms([todo, "--no-config", "--db", empty_path, "add", f"Added without {index}"]))
        run(["sqlite3", empty_path, "DELETE FROM todo_history"])  # so it stays empty
    kept = scalar(full_path, "SELECT count(*) FROM todo_history")
    if kept != DEPTH:
        raise RuntimeError(f"bulk: the full history has {kept} steps after the adds, not {DEPTH}")
    history_bytes = scalar(full_path, "SELECT sum(length(changeset)) FROM todo_history")
    figures.append(figure("bulk.add_history", p50(full), "ms", stat=f"p50 of {s.adds}", baseline=p50(empty),
                          baseline_name="add, empty history", goal=HISTORY_GOAL))
    for path in (ours_path, theirs_path, empty_path, full_path, source):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
    return {"size": s.size, "selected": selected, "rounds": s.rounds, "adds": s.adds, "depth": DEPTH,
            "step_bytes": step_bytes, "history_bytes": history_bytes}, figures


def report_note(detail):
    """The cost of undo, for docs/PERFORMANCE.md: the bulk step's size and the full history's."""
    return (f"The bulk done recorded one undo step of {detail['step_bytes']:,} bytes for {detail['selected']:,} "
            f"todos; the full history held {detail['depth']:,} steps ({detail['history_bytes']:,} bytes), and each "
            f"add with it forgot one step (a range of the rowid), which is its whole extra cost.")


def show(detail, figures_, out):
    print(f"bulk: todo --tag chores done --yes over {detail['size']:,} todos ({detail['selected']:,} selected), "
          f"{detail['rounds']} rounds on fresh copies; todo add with a full undo history ({detail['depth']:,} steps) "
          f"vs. an empty one, {detail['adds']} runs", file=out)
    table(figures_, out)
    print(f"  one undo step of {detail['step_bytes']:,} bytes for the bulk done; history of "
          f"{detail['history_bytes']:,} bytes", file=out)
