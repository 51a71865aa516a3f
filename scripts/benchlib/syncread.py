"""Reading one large object (issue 22), todo and todo-sync as the sync part builds them: a static
CalDAV stub (caldav_stub.py: Python's http.server in a process of its own, 127.0.0.1, a port the
kernel picks, exits by itself after 15 minutes, stopped by pid) serves a collection holding one
VTODO whose DESCRIPTION, folded at 75 octets with CRLF, makes it 1, 10 and 50 MB (--smoke: 20 and
100 kB); it answers what todo-sync asks at setup and on a first sync.

How todo-sync reads it: a calendar-multiget first. Its answer is read up to HTTPClient.maximumBody
(8 MiB) and each element's text up to Multistatus.maximumText (2 MiB): past either, todo-sync reads
that object alone by GET (up to HTTPClient.maximumObject, 64 MiB) and lists its href in the fetch
answer's "read_alone". So at 1 MB the object comes in the multiget's XML; at 10 and 50 MB the
multiget is cut off at its bound and the object comes by GET (the table says which, per size).
Both contenders do the same; a fetch answered with an error fails the part.

Per size, 3 rounds (--quick too; --smoke 1), p50 of each of:
  helper      todo-sync alone, fed {"op": "open"} then {"op": "fetch"} on stdin: s from writing the
              fetch request to its answer line read whole (HTTP, XML parse, JSON encoding)
  todo sync   the whole first `todo sync` of a fresh database after `todo sync setup URL`: both
              process starts and the listing requests, the same fetch, and todo's own reading of
              the answer, JSON parse, iCalendar parse and insert
  ratio       todo sync / helper, goal <= 1.5; and the growth from the smallest to the largest of
              each (linear: ~50x)
  todo alone  (context) the same first `todo sync` with a stand-in todo-sync (standin-todo-sync, a
              shell script) that answers at once, the fetch with the helper's answer replayed from
              a file: todo's own share, apart from the helper and the network
The three take turns going first. Context: the same with a 1 kB object (the fixed costs: process
starts, open, the listing requests), and each size's ratio with those times taken off both
contenders ("beyond fixed").
"""
import json, os, select, shutil, subprocess, sys, time
from types import SimpleNamespace

from .figures import bytes_label, figure
from .proc import SERVER_START_LIMIT_S, kill_group, log, stop, watchdog
from .servers import setup_and_sync, todo_env
from .stats import p50

NAME = "syncread"
HERE = os.path.dirname(os.path.abspath(__file__))
_FULL = SimpleNamespace(sizes=[1_000_000, 10_000_000, 50_000_000], rounds=3)
SETTINGS = {"full": _FULL, "quick": _FULL, "smoke": SimpleNamespace(sizes=[20_000, 100_000], rounds=1)}
GOAL = 1.5                 # the whole `todo sync` at most this many times the helper alone
FIXED_BYTES = 1_000        # the object of the context row (the fixed costs of a first sync)
MIN_GROWTH_S = 0.1         # the ratio beyond the fixed costs is shown from this much helper time beyond them
STUB_LIFETIME_S = 900      # the stub server exits by itself after this long


def standin_todo(work, todo):
    """A copy of `todo` in a folder of its own, beside standin-todo-sync as its `todo-sync`."""
    folder = os.path.join(work, "standin")
    os.makedirs(folder, exist_ok=True)
    shutil.copy2(todo, os.path.join(folder, "todo"))
    shutil.copy2(os.path.join(HERE, "standin-todo-sync"), os.path.join(folder, "todo-sync"))
    return os.path.join(folder, "todo")


class CalDAVStub:
    """caldav_stub.py in a process of its own (so that serving does not share this process's GIL
    with the reading measured here), stopped by pid."""

    def __init__(self, work, size):
        self.log_path = os.path.join(work, f"stub-{size}.log")
        with open(self.log_path, "w") as log_file:
            self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "caldav_stub.py"), str(size),
                                             str(STUB_LIFETIME_S)],
                                            stdout=subprocess.PIPE, stderr=log_file, stdin=subprocess.DEVNULL)
        ready, _, _ = select.select([self.process.stdout], [], [], SERVER_START_LIMIT_S)
        line = self.process.stdout.readline().split() if ready else []
        if len(line) != 2:
            self.stop()
            with open(self.log_path, errors="replace") as f:
                raise RuntimeError(f"the CalDAV stub did not start: {f.read()[-1000:]}")
        self.port, self.object_bytes = int(line[0]), int(line[1])
        self.url = f"http://127.0.0.1:{self.port}/tasks/"

    def stop(self):
        stop(self.process)


def helper_fetch(companion, stub, work, check=False, keep=None):
    """The helper alone: `todo-sync` fed {"op": "open"} (answered before the clock starts), then
    {"op": "fetch"} of the one href; seconds from writing the fetch request to its answer line
    read whole here, and the hrefs it read alone. A watchdog kills the helper (by its process
    group) past the time limit. With `check`, the answer must hold the object whole; with `keep`,
    it is written to that file."""
    process = subprocess.Popen([companion], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=todo_env(work, password=False), bufsize=1 << 16, start_new_session=True)
    timer = watchdog(process)
    try:
        def ask(request):
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            return process.stdout.readline()
        opened = ask({"op": "open", "url": stub.url, "user": None, "password_command": None})
        if json.loads(opened).get("ok") is not True:
            raise RuntimeError(f"todo-sync open answered {opened[:300]!r}")
        start = time.perf_counter()
        answer = ask({"op": "fetch", "hrefs": ["/tasks/big.ics"]})
        seconds = time.perf_counter() - start
        if answer.startswith(b'{"error"') or not answer.endswith(b"\n") or len(answer) < stub.object_bytes:
            raise RuntimeError(f"todo-sync fetch answered {len(answer):,} bytes: {answer[:300]!r}")
        read_alone = None
        if check:
            parsed = json.loads(answer)
            objects, read_alone = parsed["objects"], parsed["read_alone"]
            if len(objects) != 1 or len(objects[0]["text"].encode()) != stub.object_bytes:
                raise RuntimeError("todo-sync fetch did not answer the object whole")
        if keep:
            with open(keep, "wb") as f:
                f.write(answer)
        process.stdin.close()
        process.wait(timeout=30)
        return seconds, read_alone
    finally:
        timer.cancel()
        kill_group(process)


def first_sync(todo, stub, work, name, answer=None):
    """The whole first `todo sync` of a fresh database set up against the stub (`todo sync setup
    URL` not timed): wall seconds and the CPU of todo and todo-sync. `answer`: the file the
    stand-in companion replays (when `todo` is the copy beside it)."""
    db = os.path.join(work, f"{name}.sqlite")
    env = todo_env(work, password=False)
    if answer:
        env["TODO_BENCH_ANSWER"] = answer
    seconds, cpu, report = setup_and_sync(todo, db, stub.url, env)
    if report["received"] != 1:
        raise RuntimeError(f"todo sync received {report['received']}, not the one object")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    return seconds, cpu


def measure_size(todo, companion, alone, work, size, rounds):
    """One object size: the three contenders, `rounds` rounds, each going first in turn."""
    log(f"bench: syncread: a {bytes_label(size)} object, {rounds} rounds...")
    stub = CalDAVStub(work, size)
    answer = os.path.join(work, f"answer-{size}.json")
    try:
        _, read_alone = helper_fetch(companion, stub, work, check=True, keep=answer)
        helper, whole, cpu, own = [], [], [], []
        def by_helper(round):
            helper.append(helper_fetch(companion, stub, work)[0])
        def by_todo(round):
            seconds, used = first_sync(todo, stub, work, f"syncread-{size}-{round}")
            whole.append(seconds)
            cpu.append(used)
        def by_alone(round):
            own.append(first_sync(alone, stub, work, f"syncread-alone-{size}-{round}", answer)[0])
        contenders = [by_helper, by_todo, by_alone]
        for round in range(rounds):
            for contender in contenders[round % 3:] + contenders[:round % 3]:
                contender(round)
    finally:
        stub.stop()
        if os.path.exists(answer):
            os.unlink(answer)
    return {"object_bytes": stub.object_bytes, "fetched_by": "GET (read alone)" if read_alone else "calendar-multiget",
            "helper_s": p50(helper), "todo_sync_s": p50(whole), "todo_sync_cpu_s": p50(cpu), "todo_alone_s": p50(own),
            "ratio": p50(whole) / p50(helper), "helper_samples": helper, "todo_sync_samples": whole,
            "todo_alone_samples": own}


def measure(ctx):
    """The fixed-cost row (1 kB), then each size; the growth from the smallest to the largest."""
    s = SETTINGS[ctx.mode]
    todo = ctx.binaries.sync_todo()
    companion = os.path.join(os.path.dirname(todo), "todo-sync")
    alone = standin_todo(ctx.work, todo)
    part = {"rounds": s.rounds, "goal_ratio": GOAL, "sizes": {}}
    # Context: the fixed costs of a first sync (process starts, open, PROPFIND, the listing), with
    # an object of 1 kB; the ratio beyond them compares what grows with the object.
    part["fixed"] = fixed = measure_size(todo, companion, alone, ctx.work, FIXED_BYTES, s.rounds)
    for size in s.sizes:
        f = measure_size(todo, companion, alone, ctx.work, size, s.rounds)
        # Only where the helper's part that grows is large enough to divide by (noise is ~10 ms).
        grown = f["helper_s"] - fixed["helper_s"]
        f["ratio_beyond_fixed"] = (f["todo_sync_s"] - fixed["todo_sync_s"]) / grown if grown >= MIN_GROWTH_S else None
        part["sizes"][size] = f
    first, last = part["sizes"][s.sizes[0]], part["sizes"][s.sizes[-1]]
    part["growth"] = {"size": s.sizes[-1] / s.sizes[0], "helper": last["helper_s"] / first["helper_s"],
                      "todo_sync": last["todo_sync_s"] / first["todo_sync_s"]}
    return part, figures(part)


def figures(part):
    out = []
    for size, f in [(FIXED_BYTES, part["fixed"])] + list(part["sizes"].items()):
        label, fixed = bytes_label(int(size)), f is part["fixed"]
        stat = f"p50 of {part['rounds']}"
        out.append(figure(f"syncread.first_sync@{label}", f["todo_sync_s"], "s", stat=stat, baseline=f["helper_s"],
                          baseline_name="todo-sync alone", goal=None if fixed else GOAL, context=fixed))
        out.append(figure(f"syncread.todo_alone@{label}", f["todo_alone_s"], "s", stat=stat, context=True))
    return out


def show(part, figures_, out):
    sizes = list(part["sizes"])
    print(f"syncread: one VTODO of {bytes_label(sizes[0])} to {bytes_label(sizes[-1])} (its DESCRIPTION folded at 75 "
          f"octets) from a static CalDAV stub on 127.0.0.1; p50 of {part['rounds']} rounds, the contenders taking turns",
          file=out)
    print(f"{'object':<10}{'bytes':>12}{'helper s':>10}{'todo sync s':>13}{'ratio':>8}{'beyond fixed':>14}{'helper s/MB':>13}"
          f"{'todo s/MB':>11}{'todo cpu s':>12}{'todo alone s':>14}  fetched by", file=out)
    by_name = {f["name"]: f for f in figures_}
    for size, f in [(FIXED_BYTES, part["fixed"])] + list(part["sizes"].items()):
        fixed = f is part["fixed"]
        mb = int(size) / 1e6
        beyond = "-" if fixed or f["ratio_beyond_fixed"] is None else f"{f['ratio_beyond_fixed']:.2f}x"
        per_mb = lambda seconds: "-" if fixed else f"{seconds / mb:.3f}"
        passed = by_name[f"syncread.first_sync@{bytes_label(int(size))}"]["passed"]
        verdict = "(context: the fixed costs)" if fixed else {True: "met", False: "MISSED", None: "not judged"}[passed]
        print(f"{'(' + bytes_label(int(size)) + ')' if fixed else bytes_label(int(size)):<10}{f['object_bytes']:>12,}"
              f"{f['helper_s']:>10.3f}{f['todo_sync_s']:>13.3f}{f['ratio']:>7.2f}x{beyond:>14}{per_mb(f['helper_s']):>13}"
              f"{per_mb(f['todo_sync_s']):>11}{f['todo_sync_cpu_s']:>12.2f}{f['todo_alone_s']:>14.3f}  {f['fetched_by']}  "
              f"{verdict}", file=out)
    g = part["growth"]
    print(f"{g['size']:.0f}x the size: the helper took {g['helper']:.1f}x the time, todo sync {g['todo_sync']:.1f}x "
          f"(linear: about {g['size']:.0f}x, less where fixed costs weigh at the smallest size)", file=out)
    print(f"fetched by: how todo-sync delivered the object: in the calendar-multiget's XML, or by GET after the "
          f"multiget's answer passed its bounds (8 MiB of XML, 2 MiB of text in one element). helper: todo-sync alone, "
          f"fed open then fetch on stdin: from writing the fetch request to its answer line read whole (its HTTP, XML "
          f"parse and JSON encoding). todo sync: the whole first sync of a fresh database set up against the stub (both "
          f"process starts, the listing, the same fetch, then todo's reading of the answer, its JSON parse, the "
          f"iCalendar parse and the insert). ratio: todo sync / helper, goal <= {part['goal_ratio']}x; beyond fixed: "
          f"the same with the 1 kB row's times taken off both (what grows with the object; shown from {MIN_GROWTH_S} s "
          f"of the helper's). todo cpu s: user + system of todo and todo-sync. todo alone s (context): the same first "
          f"sync with a stand-in todo-sync that answers at once, the fetch with the helper's own answer replayed from "
          f"a file: todo's share (reading, JSON, iCalendar, insert) by itself.", file=out)
