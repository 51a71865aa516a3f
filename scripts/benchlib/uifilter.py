"""The ui filter (issues 15 and 38): `todo ui` over a file of 100,000 user-like todos (userdata.py:
names of 3 to 12 words, tags, notes, repeats, eight lists, a third subtasks; --smoke: 200), in the
scale table's tmux setup, the whole list in; `/`, then 33 keys one at a time (typing that narrows,
Backspaces that widen, Esc and Ctrl-U back to the list `/` found), the filter texts hitting tags
(+home, +work, @phone), names and notes (garden, garage): ms from `tmux send-keys` to the first
capture whose header names the new filter and the number of todos it selects (`todo list
--search TEXT` counted beforehand), p50 and p95, also by kind of key; and the same keys in todo's
own time (TODO_UI_STATS key_us: from its read of the key to the frame written). Goals: a frame, 16
ms, on the p95 of each (the first includes tmux, as the scale table's ui goals do).
"""
import os, shlex, subprocess, time
from types import SimpleNamespace

from . import userdata
from .figures import figure, size_label
from .proc import log, wait_gone
from .stats import summary
from .tmux import SAMPLE_LIMIT_S, TODO_ROW, Tmux, pause, tmux_name

NAME = "uifilter"
SETTINGS = {"full": SimpleNamespace(size=100_000), "quick": SimpleNamespace(size=100_000),
            "smoke": SimpleNamespace(size=200)}
GOAL_MS = 16
# The keys typed into `todo ui`'s filter prompt, in order (tmux key names; one character is typed
# literally), and what each one is: "narrow" (the text extends the shown one: narrowed in
# memory), "widen" (a character erased: the list `/` found narrowed in memory, or an SQL
# refetch once the text no longer extends the one `/` found), "restore" (back to the filter `/`
# found: its controller comes back). `/` and the final Escape are not timed.
KEYS = ([(c, "narrow") for c in "+home"] + [("BSpace", "widen")] * 4 + [(c, "narrow") for c in "work"]
        + [("Escape", "restore")] + [(c, "narrow") for c in "garden"] + [("BSpace", "widen")] * 3
        + [(c, "narrow") for c in "age"] + [("C-u", "restore")] + [(c, "narrow") for c in "@phone"])


def by_kind_summaries(kinds, values):
    grouped = {}
    for kind, value in zip(kinds, values):
        grouped.setdefault(kind, []).append(value)
    return {kind: summary(group) for kind, group in grouped.items()}


def header(search, count):
    """The header the ui shows for a filter that selects `count` todos: the words as typed, one
    space apart (UIState.filterText)."""
    typed = (search or "").split()
    text = f"todo · {count} {'todo' if count == 1 else 'todos'} · sort: status"
    return text + (f' · filter: "{" ".join(typed)}"' if typed else "")


def counts(todo, path):
    """How many todos each filter text typed selects, and (under None) how many the ui shows
    unfiltered: `todo list` with a --search per word (the ui's rule, as todo list applies it to
    names, tags and notes) or without, counted in a pipe (one line a todo)."""
    texts, text = {None}, ""
    for key, _ in KEYS:
        text = text[:-1] if key == "BSpace" else "" if key in ("Escape", "C-u") else text + key
        texts.add(text or None)
    found = {}
    for text in texts:
        searches = [option for word in (text or "").split() for option in ("--search", word)]
        out = subprocess.run([todo, "--no-config", "--db", path, "list", *searches], capture_output=True, text=True,
                             check=True).stdout
        found[text] = out.count("\n")
    return found


def ui_filter_figures(todo, path, size):
    """`todo ui` over the file. Once the whole list is in, `/` opens the filter prompt and KEYS
    are sent one at a time, 20-30 ms apart."""
    selected = counts(todo, path)
    stats = path + ".ui-stats"
    if os.path.exists(stats):
        os.unlink(stats)
    with Tmux(tmux_name("uifilter")) as tmux:
        tmux.launch(Tmux.ui_command(todo, path, env=f"TODO_UI_STATS={shlex.quote(stats)} "))
        if not tmux.poll(lambda text: TODO_ROW.search(text))[1]:
            raise RuntimeError(f"todo ui showed no todo:\n{tmux.screen()}")
        ui_pid = tmux.adopt_ui()
        tmux.loaded(size)
        tmux.keys("/")
        if not tmux.poll(lambda text: "Filter: _" in text)[1]:
            raise RuntimeError("no filter prompt")
        text, samples, timeouts = "", [], 0
        for index, (key, kind) in enumerate(KEYS):
            text = text[:-1] if key == "BSpace" else "" if key in ("Escape", "C-u") else text + key
            expected = header(text or None, selected[text or None])
            start = time.monotonic()
            tmux.keys(*(["-l", key] if len(key) == 1 else [key]))
            shown = tmux.poll(lambda screen: screen.split("\n", 1)[0].rstrip() == expected)[1]
            samples.append((time.monotonic() - start) * 1000 if shown else SAMPLE_LIMIT_S * 1000)
            timeouts += not shown
            if key == "Escape":
                # Open the prompt again (not timed).
                tmux.keys("/")
                tmux.poll(lambda screen: "Filter: _" in screen)
            pause(index)
        tmux.keys("Escape")
        # q, so the ui exits by itself and writes its TODO_UI_STATS file.
        tmux.keys("q")
        wait_gone(ui_pid)
        kinds = [kind for _, kind in KEYS]
        return {"todos": size, "selected": {str(k): v for k, v in selected.items()},
                "keys": dict(summary(samples, timeouts=timeouts), by_kind=by_kind_summaries(kinds, samples)),
                "in_todo": ui_filter_own_times(stats), "capture_ms": tmux.capture_ms()}


def ui_filter_own_times(stats):
    """The ui's own ms for each timed key, by kind, from its `key_us` line (one entry per read of
    keys, in order; the timed keys' reads are the last ones: each timed key, a `/` after each
    Escape, then the final Escape; before them come the reads of the keys that brought the whole
    list in and opened the prompt, as many as the ui's loading made them). None when the file is
    missing or holds fewer reads. The q that ends it draws no frame, so it has no entry."""
    try:
        with open(stats) as f:
            line = next((l for l in f if l.startswith("key_us=")), "")
    except OSError:
        return None
    reads = [int(v) / 1000 for v in line.strip()[len("key_us="):].split(",") if v]
    tail = len(KEYS) + sum(key == "Escape" for key, _ in KEYS) + 1
    if len(reads) < tail:
        log(f"bench: uifilter: {len(reads)} reads of keys in todo ui, fewer than {tail}: {line.strip()}")
        return None
    timed, position = [], len(reads) - tail
    for key, _ in KEYS:
        timed.append(reads[position])
        position += 2 if key == "Escape" else 1
    return dict(summary(timed), by_kind=by_kind_summaries([kind for _, kind in KEYS], timed))


def measure(ctx):
    size = SETTINGS[ctx.mode].size
    _, todo = ctx.binaries.core()
    path = userdata.copy(ctx, todo, os.path.join(ctx.work, f"uifilter-{size}.sqlite"), size)
    log(f"bench: ui filter at {size:,} user-like todos...")
    detail = ui_filter_figures(todo, path, size)
    keys, own = detail["keys"], detail["in_todo"]
    label = size_label(size)
    figures = [figure(f"uifilter.key@{label}", keys["p95"], "ms", stat=f"p95 of {keys['samples']}", goal=GOAL_MS,
                      goal_of="value", timeouts=keys["timeouts"])]
    if not own:
        raise RuntimeError("todo ui's TODO_UI_STATS key_us reads did not line up with the keys sent")
    figures.append(figure(f"uifilter.key_in_todo@{label}", own["p95"], "ms", stat=f"p95 of {own['samples']}",
                          goal=GOAL_MS, goal_of="value"))
    os.remove(path)
    return detail, figures


def show(detail, figures, out):
    keys = detail["keys"]
    print(f"ui filter: `todo ui` at {detail['todos']:,} user-like todos, one key in the filter prompt, from tmux send-keys "
          f"to the first capture showing the narrowed list (ms; {keys['samples']} keys)", file=out)
    def rows(table):
        print(f"{'keys':<10}{'count':>6}{'p50':>9}{'p95':>9}{'max':>9}", file=out)
        for kind, values in list(table["by_kind"].items()) + [("all", table)]:
            print(f"{kind:<10}{values['samples']:>6}{values['p50']:>9.1f}{values['p95']:>9.1f}{values['max']:>9.1f}"
                  + (f"  ({values['timeouts']} t/o)" if values["timeouts"] else ""), file=out)
    rows(keys)
    if detail["in_todo"]:
        print("the same keys, todo's own time: from its read of the key to the frame written (ms; TODO_UI_STATS key_us)",
              file=out)
        rows(detail["in_todo"])
    else:
        print("todo's own time per key: not available (its key_us reads did not line up with the keys sent)", file=out)
    print(f"narrow: the text extends the shown one (the shown list narrowed in memory); widen: a character erased "
          f"(the controller's results narrowed in memory); restore: back to the filter / found (Esc, Ctrl-U: the "
          f"controller's list, kept patched). Goal: a frame ({GOAL_MS} ms), on the p95 of all keys: "
          + "; ".join(f"{'tmux included' if f['name'].startswith('uifilter.key@') else 'in todo'} "
                      f"{'met' if f['passed'] else 'MISSED' if f['passed'] is False else 'not judged'}" for f in figures)
          + ". "
          f"The first table includes tmux: send-keys and capture-pane polling ({detail['capture_ms']:.1f} ms a "
          f"capture, mean).", file=out)
