"""The scale table (issue 13: the cost of a change must not grow with the list; issue 26: the whole
`todo list` against the sqlite3 shell reading the same columns, and its peak memory; issue 38: on
todos as users have them, and `todo ui` in 64 MiB), with the release `todo`, at 10,000, 100,000 and
1,000,000 todos (--quick skips 1,000,000; --smoke: 30). One user-like file per size (userdata.py:
priorities, tags, notes, created and completed times, repeats, projects, eight lists, a third
subtasks), made once in the temporary folder and used by every figure of that size but the plain
ones. p95 over 30 samples (--smoke 3); every sample is bounded (5 s: counted as 5,000 ms and shown
as a time-out) and every loop too (30 s). Commits come from this script's own process through
Python's sqlite3 module (one autocommit statement), another process than the one measured, timed
from the commit's return on CLOCK_MONOTONIC (time.monotonic_ns(), the clock TodoBench's
monotonicNanoseconds() reads), 20-30 ms apart.
  watch_commit    `todo --db F watch --json` runs (its first line, every todo, read before
                  starting); one-row commits in turn: a dated insert, a rename, a deadline change
                  (a move), a done flag, on todos spread over the list (each the first todo from
                  a spread id on that the list shows); ms until the reader thread has the
                  {"changes": ...} line naming that todo
  ui_first_frame  `todo --db F ui` in the detached tmux window (tmux.py); ms from `tmux
                  respawn-pane` launching it to the first `capture-pane -p` that shows a todo row;
                  p95 of 11 launches (the first 10 stopped at once; --smoke 2)
  ui_toggle       once the whole list is in (see ui_loaded): space on the cursor's todo (moved
                  off repeating todos first, whose box a space leaves empty); ms from `tmux
                  send-keys` to the first capture whose cursor row shows the other check box
  ui_external     the first todo on the screen is renamed by another process; ms from the
                  commit's return to the first capture that shows the new name
  ui_rss          VmRSS of `todo ui` (/proc/PID/status) once the whole list is in (MiB);
                  ui_peak_rss: its VmHWM at the end
  list            the whole `todo list` (output to a pipe) vs. the sqlite3 shell printing the same
                  columns, the same todos, in the same order (userdata.list_sql: in tree order, a
                  recursive CTE ordering by path, since the file has subtasks), alternated (p50 ms
                  of 21, 9, 5 runs at 10k, 100k, 1M)
  list_rss        peak resident memory of that `todo list` (MiB, GNU time)
  list_plain, list_rss_plain   the same two on plain todos (TodoBench insert: a name, a deadline,
                  a done flag; the shell's SELECT flat), the data of the figures before issue 38
  (watch_start)   context: ms from starting `todo watch --json` to its first line, the whole list
  (ui_loaded)     context: a space pressed at the first frame waits for the whole list (todo ui
                  loads it in slices after the first screen): ms from the launch until it shows
  (ui_first_frame_last)  context: the first frame of the last launch (the ui measured after),
                  waited for past the 5 s bound (up to 90 s): ms, once
Goals (issues 13, 26 and 38): watch_commit <= 5 ms at 10k and <= 16 ms at 1M; at 1M ui_toggle <=
33 ms, ui_external <= 33 ms, ui_first_frame <= 100 ms, ui_rss <= 64 MiB; list <= 1.2x the shell
and list_rss <= 12 MiB at every size. The outline and its watch are the outline part's.
"""
import itertools, json, os, queue, sqlite3, subprocess, threading, time
from types import SimpleNamespace

from . import userdata
from .userdata import SHOWN, list_sql
from .figures import figure, size_label
from .proc import log, memory_mib, peak_rss_mib, run, side_by_side_ms
from .stats import summary
from .tmux import LOAD_LIMIT_S, SAMPLE_LIMIT_S, TODO_ROW, Tmux, cursor_box, pause, tmux_name

NAME = "scale"
LOOP_LIMIT_S = 30.0           # one loop of samples stops taking new ones after this long
_WATCHES = itertools.count()  # watch_figures' runs in this process: each renames to names of its own
_FULL = SimpleNamespace(sizes=[10_000, 100_000, 1_000_000], samples=30, launches=10,
                        list_runs={10_000: 21, 100_000: 9, 1_000_000: 5})
SETTINGS = {"full": _FULL, "quick": SimpleNamespace(**{**vars(_FULL), "sizes": _FULL.sizes[:2]}),
            "smoke": SimpleNamespace(sizes=[30], samples=3, launches=1, list_runs={30: 3})}
GOALS = {"watch_commit": {10_000: 5, 1_000_000: 16}, "ui_toggle": {1_000_000: 33},
         "ui_external": {1_000_000: 33}, "ui_first_frame": {1_000_000: 100}, "ui_rss": {1_000_000: 64},
         "list": {10_000: 1.2, 100_000: 1.2, 1_000_000: 1.2},
         "list_rss": {10_000: 12, 100_000: 12, 1_000_000: 12}}
WATCH_KINDS = ["insert", "rename", "move", "done"]


def one_row_commit(connection, kind, index, size, nth=0):
    """Commits one one-row change of the given kind, in autocommit; returns the todo's id.
    insert: a dated todo, which lands inside the list; rename: a todo's name (naming `nth`, so
    that a later watch of the same file renames to another name); move: a todo's deadline, which
    moves it; done: a todo's done flag. Updated todos are spread over the list."""
    target = 1 + (index * 7_919 * 104_729) % size
    # The first todo from there that the list shows (not one that has not started yet: a change
    # to it is no change to the list, and watch prints nothing).
    shown = connection.execute(f"SELECT id FROM todos WHERE id >= ? AND {SHOWN} ORDER BY id LIMIT 1", (target,)).fetchone()
    target = shown[0] if shown else target
    day = f"2024-{1 + index % 12:02d}-{1 + (index * 13) % 28:02d}"
    if kind == "insert":
        return connection.execute("INSERT INTO todos (name, deadline) VALUES (?, ?)",
                                  (f"watched {index} in {nth}", day)).lastrowid
    if kind == "rename":
        connection.execute("UPDATE todos SET name = ? WHERE id = ?", (f"watched {index} in {nth}", target))
    elif kind == "move":
        # Another day than the todo has, so the commit changes what watch shows.
        current = connection.execute("SELECT deadline FROM todos WHERE id = ?", (target,)).fetchone()[0]
        if current == day:
            day = f"2023-{day[5:]}"
        connection.execute("UPDATE todos SET deadline = ? WHERE id = ?", (day, target))
    else:
        connection.execute("UPDATE todos SET done = 1 - done WHERE id = ?", (target,))
    return target


def watch_figures(todo, path, size, samples, options=()):
    """`todo watch --json` over the file (`options` after `watch`: `--outline --by tag`). This
    process (not watch) commits one-row changes, each kind of WATCH_KINDS in turn, and stamps each
    commit's return with CLOCK_MONOTONIC; a reader thread stamps each line of watch's stdout with
    the same clock as it is read."""
    lines = queue.Queue()
    watcher = connection = None
    nth = next(_WATCHES)
    try:
        start = time.monotonic()
        watcher = subprocess.Popen([todo, "--db", path, "watch", *options, "--json"], stdout=subprocess.PIPE)
        def read():
            for line in iter(watcher.stdout.readline, b""):
                lines.put((time.monotonic_ns(), line))
            lines.put((time.monotonic_ns(), None))
        threading.Thread(target=read, daemon=True).start()
        _, first = lines.get(timeout=LOAD_LIMIT_S)
        watch_start = (time.monotonic() - start) * 1000
        # The list ({"items": [...]}), or with --outline its groups ({"groups": [...]}).
        if not first or not first.startswith((b'{"items": [', b'{"groups": [')):
            raise RuntimeError(f"todo watch --json printed {first and first[:80]!r} first")
        del first
        connection = sqlite3.connect(path, timeout=5, isolation_level=None)
        latencies, by_kind, timeouts = [], {kind: [] for kind in WATCH_KINDS}, 0
        deadline = time.monotonic() + LOOP_LIMIT_S
        for index in range(samples):
            if time.monotonic() > deadline:
                break
            kind = WATCH_KINDS[index % len(WATCH_KINDS)]
            todo_id = one_row_commit(connection, kind, index, size, nth)
            committed = time.monotonic_ns()
            arrived = None
            while arrived is None and time.monotonic_ns() - committed < SAMPLE_LIMIT_S * 1e9:
                try:
                    now, line = lines.get(timeout=max(0.001, SAMPLE_LIMIT_S - (time.monotonic_ns() - committed) / 1e9))
                except queue.Empty:
                    break
                if line is None:
                    raise RuntimeError("todo watch exited")
                if any(change.get("id") == todo_id for change in json.loads(line)["changes"]):
                    arrived = now
            latency = (arrived - committed) / 1e6 if arrived else SAMPLE_LIMIT_S * 1000
            timeouts += arrived is None
            latencies.append(latency)
            by_kind[kind].append(latency)
            pause(index)
        return {"watch_commit": dict(summary(latencies, timeouts=timeouts),
                                     max_by_kind={kind: max(values) for kind, values in by_kind.items() if values}),
                "watch_start": watch_start}
    finally:
        if connection:
            connection.close()
        if watcher:
            watcher.kill()
            watcher.wait()


def ui_figures(todo, path, size, samples, launches):
    """`todo ui` in the detached 100x30 tmux window, read only through `tmux capture-pane -p`."""
    figures = {}
    with Tmux(tmux_name(size)) as tmux:
        command = Tmux.ui_command(todo, path)
        # ui_first_frame: from launching `todo ui` to the first capture that shows a todo row.
        # Each launch but the last is stopped at once (before it has loaded the rest of the list).
        first_frames, timeouts = [], 0
        deadline = time.monotonic() + LOOP_LIMIT_S
        for launch in range(launches + 1):
            last = launch == launches
            if not last and time.monotonic() > deadline:
                continue
            start = tmux.launch(command)
            shown = tmux.poll(lambda text: TODO_ROW.search(text))[1]
            first_frames.append((time.monotonic() - start) * 1000 if shown else SAMPLE_LIMIT_S * 1000)
            timeouts += not shown
            if last:
                # The ui the rest is measured on: waited for past the sample's bound (its sample
                # stays a time-out), and how long it took kept as context.
                if not shown and not tmux.poll(lambda text: TODO_ROW.search(text), limit=LOAD_LIMIT_S)[1]:
                    raise RuntimeError(f"todo ui showed no todo in {LOAD_LIMIT_S} s:\n{tmux.screen()}")
                figures["ui_first_frame_last"] = (time.monotonic() - start) * 1000
        figures["ui_first_frame"] = summary(first_frames, timeouts=timeouts)
        ui_pid = tmux.adopt_ui()
        figures["ui_loaded"] = (tmux.loaded(size) - start) * 1000
        figures["ui_rss"] = memory_mib(ui_pid)[0]

        # ui_toggle: space on the cursor's todo, from starting `tmux send-keys` to the first
        # capture whose cursor row shows the other check box.
        toggles, timeouts = [], 0
        deadline = time.monotonic() + LOOP_LIMIT_S
        for index in range(samples):
            if time.monotonic() > deadline:
                break
            box = cursor_box(tmux.screen())
            start = time.monotonic()
            tmux.keys("Space")
            elapsed, done = tmux.poll(lambda text: cursor_box(text) not in (box, None))
            toggles.append((time.monotonic() - start) * 1000 if done else SAMPLE_LIMIT_S * 1000)
            timeouts += not done
            pause(index)
        figures["ui_toggle"] = summary(toggles, timeouts=timeouts)

        # ui_external: this process (not the ui) renames the first todo on the screen through
        # Python's sqlite3 module, one autocommit UPDATE; from the commit's return to the first
        # capture that shows the new name.
        top_id = int(TODO_ROW.search(tmux.screen()).group(2))
        externals, timeouts = [], 0
        connection = sqlite3.connect(path, timeout=5, isolation_level=None)
        try:
            deadline = time.monotonic() + LOOP_LIMIT_S
            for index in range(samples):
                if time.monotonic() > deadline:
                    break
                name = f"renamed {index} of {size}"
                connection.execute("UPDATE todos SET name = ? WHERE id = ?", (name, top_id))
                committed = time.monotonic()
                elapsed, done = tmux.poll(lambda text: name in text)
                externals.append((time.monotonic() - committed) * 1000 if done else SAMPLE_LIMIT_S * 1000)
                timeouts += not done
                pause(index)
        finally:
            connection.close()
        figures["ui_external"] = summary(externals, timeouts=timeouts)
        figures["ui_peak_rss"] = memory_mib(ui_pid)[1]
        figures["capture_ms"] = tmux.capture_ms()
    return figures


def measure(ctx):
    """The figures at each size, on a user-like file (userdata.py) made once per size and shared by
    the watch, ui and list measurements; and `todo list` on plain todos (TodoBench insert) beside."""
    s = SETTINGS[ctx.mode]
    bench, todo = ctx.binaries.core()
    sizes = {}
    for size in s.sizes:
        path = os.path.join(ctx.work, f"scale-{size}.sqlite")
        start = time.monotonic()
        userdata.copy(ctx, todo, path, size)
        built = time.monotonic() - start
        at = watch_figures(todo, path, size, s.samples)
        at.update(ui_figures(todo, path, size, s.samples, s.launches))
        # The whole `todo list` against the shell, alternated; and todo list's peak memory.
        at["list"], at["list_shell"] = side_by_side_ms([todo, "--db", path, "list"], ["sqlite3", path, list_sql(path)],
                                                       s.list_runs[size])
        at["list_rss"] = peak_rss_mib([todo, "--db", path, "list"])
        os.remove(path)
        plain = userdata.plain(bench, os.path.join(ctx.work, f"scale-plain-{size}.sqlite"), size)
        at["list_plain"], at["list_plain_shell"] = side_by_side_ms(
            [todo, "--db", plain, "list"], ["sqlite3", plain, list_sql(plain)], s.list_runs[size])
        at["list_rss_plain"] = peak_rss_mib([todo, "--db", plain, "list"])
        os.remove(plain)
        sizes[size] = at
        log(f"bench: scale at {size:,} todos: {time.monotonic() - start:.1f} s (the file {built:.1f} s)")
    detail = {"sizes": sizes, "all_sizes": SETTINGS["full"].sizes, "samples": s.samples,
              "first_frame_launches": s.launches + 1, "list_runs": s.list_runs}
    return detail, figures(detail)


def figures(detail):
    out = []
    for size, at in detail["sizes"].items():
        size = int(size)
        def named(key, value, unit, stat, **more):
            goal = GOALS.get(key, {}).get(size)
            out.append(figure(f"scale.{key}@{size_label(size)}", value, unit, stat=stat, goal=goal,
                              goal_of="ratio" if key.startswith("list") and unit == "ms" else "value", **more))
        for key in ("watch_commit", "ui_first_frame", "ui_toggle", "ui_external"):
            named(key, at[key]["p95"], "ms", f"p95 of {at[key]['samples']}", timeouts=at[key]["timeouts"])
        named("ui_rss", at["ui_rss"], "MiB", "VmRSS")
        named("ui_peak_rss", at["ui_peak_rss"], "MiB", "VmHWM")
        named("list", at["list"], "ms", f"p50 of {detail['list_runs'][size]}", baseline=at["list_shell"],
              baseline_name="sqlite3 shell")
        named("list_rss", at["list_rss"], "MiB", "peak")
        if "list_plain" in at:
            named("list_plain", at["list_plain"], "ms", f"p50 of {detail['list_runs'][size]}",
                  baseline=at["list_plain_shell"], baseline_name="sqlite3 shell")
            named("list_rss_plain", at["list_rss_plain"], "MiB", "peak")
        named("watch_start", at["watch_start"], "ms", "once", context=True)
        named("ui_loaded", at["ui_loaded"], "ms", "once", context=True)
        if "ui_first_frame_last" in at:
            named("ui_first_frame_last", at["ui_first_frame_last"], "ms", "once", context=True)
    return out


def report_note(detail):
    """A line for docs/PERFORMANCE.md: the sizes this run did not measure, whose goals it did not judge."""
    skipped = [size for size in detail["all_sizes"] if size not in {int(s) for s in detail["sizes"]}]
    if not skipped:
        return ""
    return (f"Not measured in this run: {', '.join(f'{size:,}' for size in skipped)} todos (--quick skips them), so "
            f"the goals at {', '.join(size_label(size) for size in skipped)} were not judged: "
            + "; ".join(f"{key} <= {goals[size]} at {size_label(size)}" for key, goals in GOALS.items()
                        for size in skipped if size in goals) + ".")


def show(detail, figures_, out):
    sizes = detail["sizes"]
    columns = detail["all_sizes"] if all(int(size) in detail["all_sizes"] for size in sizes) else [int(s) for s in sizes]
    by_name = {f["name"]: f for f in figures_}
    def cell(key, size, field="value"):
        f = by_name.get(f"scale.{key}@{size_label(size)}")
        if f is None:
            return "skipped"
        value = f[field]
        if value is None:
            return "-"
        text = f"{value:.2f}" if value < 100 else f"{value:,.0f}"
        return text + (f" ({f['timeouts']} t/o)" if f["timeouts"] and field == "value" else "")
    def goal(key):
        parts = []
        for size, limit in GOALS.get(key, {}).items():
            f = by_name.get(f"scale.{key}@{size_label(size)}")
            verdict = "" if f is None or f["passed"] is None else " met" if f["passed"] else " MISSED"
            parts.append(f"<= {limit} at {size_label(size)}{verdict}")
        return "; ".join(parts) or "-"
    print(f"scale: the todo binary at {', '.join(f'{size:,}' for size in columns)} todos "
          f"(p95 of {detail['samples']} samples; first frame of {detail['first_frame_launches']} launches)", file=out)
    print(f"{'figure':<22}{'unit':<10}" + "".join(f"{size:>14,}" for size in columns) + "  goal", file=out)
    rows = [("watch_commit", "ms p95"), ("ui_first_frame", "ms p95"), ("ui_toggle", "ms p95"), ("ui_external", "ms p95"),
            ("ui_rss", "MiB VmRSS"), ("ui_peak_rss", "MiB VmHWM"), ("list", "ms p50"), ("list_shell", "ms p50"),
            ("list_ratio", "x"), ("list_rss", "MiB peak"), ("list_plain", "ms p50"), ("list_plain_shell", "ms p50"),
            ("list_plain_ratio", "x"), ("list_rss_plain", "MiB peak"), ("watch_start", "ms once"), ("ui_loaded", "ms once"),
            ("ui_first_frame_last", "ms once")]
    for key, unit in rows:
        source, field = {"list_shell": ("list", "baseline"), "list_ratio": ("list", "ratio"),
                         "list_plain_shell": ("list_plain", "baseline"),
                         "list_plain_ratio": ("list_plain", "ratio")}.get(key, (key, "value"))
        label = f"({key})" if key in ("list_shell", "list_plain_shell", "watch_start", "ui_loaded",
                                      "ui_first_frame_last") else key
        goal_text = {"list": "-", "list_ratio": goal("list"), "list_plain": "-"}.get(key) or goal(key)
        print(f"{label:<22}{unit:<10}" + "".join(f"{cell(source, size, field):>14}" for size in columns)
              + f"  {goal_text}", file=out)
    captures = [at["capture_ms"] for at in sizes.values()]
    print(f"The ui figures include tmux: launching through respawn-pane, send-keys, and polling with capture-pane "
          f"({sum(captures) / len(captures):.1f} ms a capture, mean). ui_external is timed from the return of another "
          f"process's commit (this script, through Python's sqlite3), watch_commit likewise (inserts, renames, moves "
          f"and done flags in turn). Rows in parentheses are context, not goals: list_shell is the sqlite3 shell "
          f"reading the same columns, watch_start the time to watch's first line (the whole list), ui_loaded "
          f"from launch until a space pressed at the first frame takes effect (it waits for the whole list). "
          f"t/o: samples over {SAMPLE_LIMIT_S:.0f} s, counted at {SAMPLE_LIMIT_S:.0f} s.", file=out)
