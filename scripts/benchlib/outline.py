"""The outline on todos as users have them (issue 38): `todo list --outline [--by ...]` against the
sqlite3 shell's equivalent query, and `todo watch --outline [--by ...]`'s answer to a commit, at
10,000, 100,000 and 1,000,000 todos (--quick skips 1,000,000; --smoke: 200), each size one
user-like file (userdata.py: priorities, tags, notes, repeats, eight lists, a third subtasks),
made once and shared with the scale part in the same run. The groupings: done (`--outline`
alone), tag, priority, due.
  list_BY@SIZE    whole `todo list --outline --by BY` (output to a pipe) vs. the sqlite3 shell
                  printing the same rows in the same order (userdata.tree_sql: every column todo
                  reads, under each group's key, the groups in display order, each group's todos
                  as a tree depth first, a recursive CTE ordering by path; by tag, each todo under
                  each of its tags, the tags column split by another recursive CTE), alternated:
                  p50 ms of 21, 9, 5 runs at 10k, 100k, 1M. Goal: at most 1.3x the shell.
  watch_BY@SIZE   `todo watch --outline --by BY --json`: p95 ms from another process's one-row
                  commit to the change line naming the todo, as scale's watch_commit takes it
                  (scale.watch_figures: inserts, renames, moves, done flags in turn; 30 samples,
                  each bounded at 5 s, the loop at 30 s). Goal: at most 16 ms at 1M, as the flat
                  watch.
  (watch_BY_start@SIZE)  context: ms from starting that watch to its first line (every group).
--smoke: 200 todos, 3 runs, 3 samples.
"""
import os
from types import SimpleNamespace

from . import userdata
from .figures import figure, size_label, table
from .proc import log, side_by_side_ms
from .scale import watch_figures

NAME = "outline"
_FULL = SimpleNamespace(sizes=[10_000, 100_000, 1_000_000], samples=30,
                        runs={10_000: 21, 100_000: 9, 1_000_000: 5})
SETTINGS = {"full": _FULL, "quick": SimpleNamespace(**{**vars(_FULL), "sizes": _FULL.sizes[:2]}),
            "smoke": SimpleNamespace(sizes=[200], samples=3, runs={200: 3})}
GROUPINGS = ["done", "tag", "priority", "due"]
LIST_GOAL = 1.3
WATCH_GOALS = {1_000_000: 16}


def options(by):
    """`todo list`'s (and watch's) options for the grouping: --outline alone groups by done."""
    return ["--outline"] + ([] if by == "done" else ["--by", by])


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    figures = []
    for size in s.sizes:
        label = size_label(size)
        path = userdata.copy(ctx, todo, os.path.join(ctx.work, f"outline-{label}.sqlite"), size)
        for by in GROUPINGS:
            log(f"bench: outline: todo list {' '.join(options(by))} over {size:,} todos vs. the sqlite3 shell...")
            ours, theirs = side_by_side_ms([todo, "--db", path, "list", *options(by)],
                                           ["sqlite3", path, userdata.tree_sql(path, by)], s.runs[size])
            figures.append(figure(f"outline.list_{by}@{label}", ours, "ms", stat=f"p50 of {s.runs[size]}",
                                  baseline=theirs, baseline_name="sqlite3 shell", goal=LIST_GOAL))
        for by in GROUPINGS:
            log(f"bench: outline: todo watch {' '.join(options(by))} --json over {size:,} todos...")
            watched = watch_figures(todo, path, size, s.samples, options(by))
            commit = watched["watch_commit"]
            figures.append(figure(f"outline.watch_{by}@{label}", commit["p95"], "ms", stat=f"p95 of {commit['samples']}",
                                  goal=WATCH_GOALS.get(size), goal_of="value", timeouts=commit["timeouts"]))
            figures.append(figure(f"outline.watch_{by}_start@{label}", watched["watch_start"], "ms", stat="once",
                                  context=True))
        os.remove(path)
    return {"sizes": s.sizes, "runs": {str(k): v for k, v in s.runs.items()}, "samples": s.samples}, figures


def show(detail, figures, out):
    print(f"outline: todo list --outline [--by tag|priority|due] vs. the sqlite3 shell's equivalent query, and todo "
          f"watch --outline [--by ...] (p95 of {detail['samples']} commits), over "
          f"{', '.join(f'{size:,}' for size in detail['sizes'])} user-like todos", file=out)
    table(figures, out)
