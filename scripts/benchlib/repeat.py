"""Repeats, lists and subtasks on todos as users have them (issues 34, 35, 36; issue 38: one
generator, userdata.py, for every part: priorities, tags, notes, created and completed times, one
todo in ten repeating, projects), each file in the shape a figure measures (made once per run and
shape, shared with other parts):
  list@SIZE   whole `todo list` over one list without subtasks vs. the sqlite3 shell running the
              same SELECT (userdata.list_sql: every column todo reads, its order and its filter)
              on the same file: p50 ms of 21 runs each, alternating, at 100,000 and (full runs)
              1,000,000 todos. Goal: at most 1.2x the shell.
  lists@SIZE  the same `todo list` and shell SELECT with the todos in eight lists (issue 35):
              rows then name their list. Goal: at most 1.2x the shell.
  outline@SIZE          `todo list --outline` over eight lists with a third of the todos subtasks
                        (issue 36; up to three levels, userdata's families) vs. the same todos
                        without parents (the same file made without subtasks): p50 ms of 21 runs
                        each, alternating. Goal: at most 1.3x.
  watch_subtasks@SIZE   `todo watch --json` over that file with subtasks: p95 ms from another
                        process's one-row commit to the change line, as scale's watch_commit takes
                        it (scale.watch_figures). Goal: at most 16 ms at 1M.
  done        whole `todo done ID` on a repeating todo (it moves to its next date and logs the
              occurrence) vs. `todo done ID` on a plain one, on a 10,000-todo file: p50 ms of 41
              runs each, alternating (each plain run takes the next undone todo; the repeating
              one moves on each time). Goal: at most 1.2x the plain one.
--smoke: 200 todos, 3 runs.
"""
import os
from types import SimpleNamespace

from . import userdata
from .figures import figure, size_label, table
from .proc import log, run, side_by_side_ms, wall_ms
from .scale import watch_figures
from .stats import p50
from .userdata import list_sql

NAME = "repeat"
SETTINGS = {"full": SimpleNamespace(sizes=[100_000, 1_000_000], runs=21, done_todos=10_000, done_runs=41,
                                    watch_samples=30),
            "quick": SimpleNamespace(sizes=[100_000], runs=21, done_todos=10_000, done_runs=41, watch_samples=30),
            "smoke": SimpleNamespace(sizes=[200], runs=3, done_todos=200, done_runs=3, watch_samples=3)}
GOAL = 1.2
OUTLINE_GOAL = 1.3
WATCH_GOALS = {1_000_000: 16}


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    figures = []
    for size in s.sizes:
        label = size_label(size)
        log(f"bench: repeat: todo list over {size:,} todos in one list, one in ten repeating, vs. the sqlite3 shell...")
        path = userdata.copy(ctx, todo, os.path.join(ctx.work, f"repeat-{label}.sqlite"), size, subtasks=False,
                             lists=False)
        ours, theirs = side_by_side_ms([todo, "--db", path, "list"], ["sqlite3", path, list_sql(path)], s.runs)
        figures.append(figure(f"repeat.list@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                              baseline_name="sqlite3 shell", goal=GOAL))
        log(f"bench: repeat: the same {size:,} todos in eight lists...")
        flat = userdata.copy(ctx, todo, path, size, subtasks=False)
        ours, theirs = side_by_side_ms([todo, "--db", flat, "list"], ["sqlite3", flat, list_sql(flat)], s.runs)
        figures.append(figure(f"repeat.lists@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                              baseline_name="sqlite3 shell", goal=GOAL))
        figures += subtask_figures(ctx, todo, flat, size, s)
        os.remove(flat)

    log(f"bench: repeat: todo done on a repeating todo vs. a plain one ({s.done_todos:,} todos)...")
    path = userdata.copy(ctx, todo, os.path.join(ctx.work, "repeat-done.sqlite"), s.done_todos)
    # Todos without subtasks: `todo done` in a pipe changes nothing of a todo with undone subtasks.
    childless = "NOT EXISTS (SELECT 1 FROM todos AS c WHERE c.parent_id = t.id)"
    repeating = int(run(["sqlite3", path, f"SELECT min(id) FROM todos AS t WHERE repeat_rule IS NOT NULL AND {childless}"]))
    plain = [int(x) for x in run(["sqlite3", path, f"SELECT id FROM todos AS t WHERE repeat_rule IS NULL AND done = 0 "
                                  f"AND start_date IS NULL AND {childless} ORDER BY id LIMIT {s.done_runs}"]).split()]
    ours, theirs = [], []
    for index in range(s.done_runs):
        ours.append(wall_ms([todo, "--db", path, "done", str(repeating)]))
        theirs.append(wall_ms([todo, "--db", path, "done", str(plain[index % len(plain)])]))
    figures.append(figure("repeat.done", p50(ours), "ms", stat=f"p50 of {s.done_runs}", baseline=p50(theirs),
                          baseline_name="plain todo done", goal=GOAL))
    return {"sizes": s.sizes, "done_todos": s.done_todos}, figures


def subtask_figures(ctx, todo, flat, size, s):
    """The outline with a third of the todos subtasks against the same todos flat (`flat`: the
    file made without subtasks), and todo watch over the file with subtasks."""
    label = size_label(size)
    log(f"bench: repeat: todo list --outline over {size:,} todos, a third of them subtasks, vs. flat...")
    path = userdata.copy(ctx, todo, os.path.join(ctx.work, f"repeat-subtasks-{label}.sqlite"), size)
    ours, theirs = side_by_side_ms([todo, "--db", path, "list", "--outline"], [todo, "--db", flat, "list", "--outline"],
                                   s.runs)
    figures = [figure(f"repeat.outline@{label}", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                      baseline_name="flat outline", goal=OUTLINE_GOAL)]
    log(f"bench: repeat: todo watch --json over {size:,} todos, a third of them subtasks...")
    watch = watch_figures(todo, path, size, s.watch_samples)["watch_commit"]
    figures.append(figure(f"repeat.watch_subtasks@{label}", watch["p95"], "ms", stat=f"p95 of {watch['samples']}",
                          goal=WATCH_GOALS.get(size), goal_of="value", timeouts=watch["timeouts"]))
    os.remove(path)
    return figures


def show(detail, figures, out):
    sizes = ", ".join(f"{size:,}" for size in detail["sizes"])
    print(f"repeat: todo list over {sizes} user-like todos (one in ten repeating; in one list, then in eight); "
          f"todo list --outline and todo watch with a third of them subtasks; todo done on a repeating todo over "
          f"{detail['done_todos']:,}", file=out)
    table(figures, out)
