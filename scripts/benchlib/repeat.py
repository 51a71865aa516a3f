"""Repeating todos on data that looks like users' (issue 34): a file where one todo in ten repeats
(weekly on two days, monthly, every other day), with priorities, tags, notes, due times, start
dates, a fifth of them done, made by one INSERT ... SELECT in the sqlite3 shell over todo's own
schema (so the change feed's triggers run as for todos added one by one).
  list@SIZE   whole `todo list` vs. the sqlite3 shell running the same SELECT (every column todo
              reads, its order and its filter) on the same file: p50 ms of 21 runs each,
              alternating, at 100,000 and (full runs) 1,000,000 todos. Goal: at most 1.2x the shell.
  lists@SIZE  the same `todo list` and shell SELECT once the todos are spread over ten lists (issue
              35): rows then name their list. Goal: at most 1.2x the shell.
  outline@SIZE          `todo list --outline` once 30% of the todos are subtasks (issue 36: ids ending
                        in 2 and 3 under the todo ending in 1, those ending in 4 under the one ending
                        in 3: three levels) vs. today's flat outline, the same todos without parents
                        (a copy of the file): p50 ms of 21 runs each, alternating. Goal: at most 1.3x.
  watch_subtasks@SIZE   `todo watch --json` over that file with subtasks: p95 ms from another
                        process's one-row commit to the change line, as scale's watch_commit takes it
                        (scale.watch_figures). Goal: at most 16 ms at 1M.
  done        whole `todo done ID` on a repeating todo (it moves to its next date and logs the
              occurrence) vs. `todo done ID` on a plain one, on a copy of the 10,000-todo file:
              p50 ms of 41 runs each, alternating (each plain run takes the next undone todo; the
              repeating one moves on each time). Goal: at most 1.2x the plain one.
--smoke: 200 todos, 3 runs.
"""
import os
from types import SimpleNamespace

import shutil

from .core import list_sql
from .figures import figure, size_label, table
from .proc import log, run, side_by_side_ms, wall_ms
from .scale import watch_figures
from .stats import p50

NAME = "repeat"
SETTINGS = {"full": SimpleNamespace(sizes=[100_000, 1_000_000], runs=21, done_todos=10_000, done_runs=41,
                                    watch_samples=30),
            "quick": SimpleNamespace(sizes=[100_000], runs=21, done_todos=10_000, done_runs=41, watch_samples=30),
            "smoke": SimpleNamespace(sizes=[200], runs=3, done_todos=200, done_runs=3, watch_samples=3)}
GOAL = 1.2
OUTLINE_GOAL = 1.3
WATCH_GOALS = {1_000_000: 16}

# 30% of the todos as subtasks, three levels (issue 36): x2 and x3 under x1, x4 under x3. x1 is
# never done (i % 5 = 0 is), so most subtasks share their parent's group.
SUBTASKS_SQL = """
UPDATE todos SET parent_id = CASE id % 10 WHEN 2 THEN id - 1 WHEN 3 THEN id - 2 WHEN 4 THEN id - 1 END
WHERE id % 10 IN (2, 3, 4) AND id > 10;
"""

# One todo in ten repeats (and has a deadline: i % 10 = 3 is odd, so i % 4 is not 0); a fifth are
# done (never a repeating one); a third have tags, a tenth a note, a twentieth a due time, a
# thirty-third a start date in the past (so `todo list` shows them all).
FILL_SQL = """
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {size})
INSERT INTO todos (name, deadline, done, priority, tags, note, created, completed, repeat_rule, repeat_from,
                   due_time, start_date)
SELECT 'Todo number ' || i || CASE WHEN i % 7 = 0 THEN ' about the garden and the shed' ELSE '' END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE date('2026-01-01', '+' || (i % 400) || ' days') END,
       i % 5 = 0,
       CASE i % 6 WHEN 0 THEN 1 WHEN 1 THEN 5 WHEN 2 THEN 9 ELSE 0 END,
       CASE i % 3 WHEN 0 THEN '+work @phone' WHEN 1 THEN '+home' ELSE '' END,
       CASE WHEN i % 10 = 0 THEN 'A note' || char(10) || 'of two lines' END,
       '2026-01-01T09:00:00Z',
       CASE WHEN i % 5 = 0 THEN '2026-02-01T10:00:00Z' END,
       CASE WHEN i % 10 = 3 THEN CASE i % 3 WHEN 0 THEN 'FREQ=WEEKLY;BYDAY=MO,TH' WHEN 1 THEN 'FREQ=MONTHLY'
                                 ELSE 'FREQ=DAILY;INTERVAL=2' END END,
       'due',
       CASE WHEN i % 20 = 1 THEN '19:00' END,
       CASE WHEN i % 33 = 2 AND i % 4 <> 0 THEN '2025-12-01' END
FROM n;
"""

# Nine more lists beside the first (ids 2 to 10 in a new file), and every todo in one of the ten
# (issue 35).
TEN_LISTS_SQL = """
WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
INSERT INTO lists (id, name, position) SELECT i, 'List ' || i, i FROM n;
UPDATE todos SET list_id = 1 + id % 10;
"""


def make_file(todo, path, size):
    run([todo, "--db", path, "list"])  # todo's own schema, every migration
    run(["sqlite3", path, FILL_SQL.format(size=size)], timeout=600)


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    figures = []
    for size in s.sizes:
        label = size_label(size)
        log(f"bench: repeat: todo list over {size:,} todos, one in ten repeating, vs. the sqlite3 shell...")
        path = os.path.join(ctx.work, f"repeat-{label}.sqlite")
        make_file(todo, path, size)
        ours, theirs = side_by_side_ms([todo, "--db", path, "list"], ["sqlite3", path, list_sql(path)], s.runs)
        figures.append(figure(f"repeat.list@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                              baseline_name="sqlite3 shell", goal=GOAL))
        figures += subtask_figures(todo, path, size, s)
        log(f"bench: repeat: the same {size:,} todos in ten lists...")
        run(["sqlite3", path, TEN_LISTS_SQL], timeout=600)
        ours, theirs = side_by_side_ms([todo, "--db", path, "list"], ["sqlite3", path, list_sql(path)], s.runs)
        figures.append(figure(f"repeat.lists@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                              baseline_name="sqlite3 shell", goal=GOAL))
        os.remove(path)

    log(f"bench: repeat: todo done on a repeating todo vs. a plain one ({s.done_todos:,} todos)...")
    path = os.path.join(ctx.work, "repeat-done.sqlite")
    make_file(todo, path, s.done_todos)
    repeating = int(run(["sqlite3", path, "SELECT min(id) FROM todos WHERE repeat_rule IS NOT NULL"]))
    plain = [int(x) for x in run(["sqlite3", path, "SELECT id FROM todos WHERE repeat_rule IS NULL AND done = 0 "
                                  f"ORDER BY id LIMIT {s.done_runs}"]).split()]
    ours, theirs = [], []
    for index in range(s.done_runs):
        ours.append(wall_ms([todo, "--db", path, "done", str(repeating)]))
        theirs.append(wall_ms([todo, "--db", path, "done", str(plain[index % len(plain)])]))
    figures.append(figure("repeat.done", p50(ours), "ms", stat=f"p50 of {s.done_runs}", baseline=p50(theirs),
                          baseline_name="plain todo done", goal=GOAL))
    return {"sizes": s.sizes, "done_todos": s.done_todos}, figures


def subtask_figures(todo, path, size, s):
    """The outline with 30% subtasks against the same todos flat (a copy made first), and todo
    watch over the file with subtasks. Leaves `path` without subtasks again, for what follows."""
    label = size_label(size)
    log(f"bench: repeat: todo list --outline over {size:,} todos, 30% of them subtasks, vs. flat...")
    flat = path + ".flat"
    shutil.copyfile(path, flat)
    run(["sqlite3", path, SUBTASKS_SQL], timeout=600)
    ours, theirs = side_by_side_ms([todo, "--db", path, "list", "--outline"], [todo, "--db", flat, "list", "--outline"],
                                   s.runs)
    os.remove(flat)
    figures = [figure(f"repeat.outline@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                      baseline_name="flat outline", goal=OUTLINE_GOAL)]
    log(f"bench: repeat: todo watch --json over {size:,} todos, 30% of them subtasks...")
    watch = watch_figures(todo, path, size, s.watch_samples)["watch_commit"]
    figures.append(figure(f"repeat.watch_subtasks@{label}", watch["p95"], "ms", stat=f"p95 of {watch['samples']}",
                          goal=WATCH_GOALS.get(size), goal_of="value", timeouts=watch["timeouts"]))
    run(["sqlite3", path, "UPDATE todos SET parent_id = NULL WHERE parent_id IS NOT NULL"], timeout=600)
    return figures


def show(detail, figures, out):
    sizes = ", ".join(f"{size:,}" for size in detail["sizes"])
    print(f"repeat: todo list over {sizes} todos (one in ten repeating, with priorities, tags, notes, due "
          f"times, start dates; then in ten lists); todo list --outline and todo watch with 30% of them subtasks; "
          f"todo done on a repeating todo over {detail['done_todos']:,}", file=out)
    table(figures, out)
