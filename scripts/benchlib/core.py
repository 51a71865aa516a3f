"""The core figures: each taken side by side with its baseline, in the same run, on the same machine
(the release TodoBench and todo; the C baseline on libsqlite3; the sqlite3 shell). "User-like"
files are userdata.py's (priorities, tags, notes, created and completed times, repeats, projects,
eight lists, a third subtasks: issue 38); "plain" todos are TodoBench insert's ("Todo number N", a
deadline, a done flag), the data of the figures before issue 38, kept beside for comparison.
  insert  100,000 plain todos in one transaction through TodoRepository vs. C on libsqlite3 (rows/s,
          best of 3 fresh files each, alternating)
  fetch   100,000 plain todos read into Todo values vs. into C structs (rows/s, each best of 5 inside)
  cli_list / cli_add   whole `todo list` / `todo add` over 10,000 user-like todos vs. the sqlite3
          shell running the same SQL on the same file (p50 ms of 41 runs each, alternating). The
          shell's list is userdata.list_sql: every column todo reads, the todos it shows, in its
          order, which with subtasks is tree order (a recursive CTE ordering by path).
  cli_list_plain       the same `todo list` figure over 10,000 plain todos (a flat SELECT)
  list_rss             peak resident memory of `todo list` over 100,000 user-like todos vs. the
                       sqlite3 shell (MiB); list_rss_plain: over 100,000 plain todos
  import  whole `todo import` of 50,000 user-like todos (in one list, a third subtasks) from JSON
          (`todo export` of a userdata file; one undoable transaction) vs. the sqlite3 shell running
          INSERTs of the same rows (every column) in one transaction (rows/s, best of 3)
  notify  p95 ms from a commit in another process to the controller's callback (60 commits), inotify
          monitor vs. a 100 ms PRAGMA data_version polling loop
  idle_cpu             CPU used by an idle `todo watch` over 100 user-like todos vs. the polling loop
                       (% of one core, over 4 s)
  diff    our snapshot diff of two 100,000-item lists (1% each of inserts, deletes, moves, updates)
          vs. the standard library's difference(from:).inferringMoves() (ms, TodoBench's best of 5)
  snapshot_build       building the outline (by done, subtasks nested: what an app's diffable data
                       source builds with the library's TodoSnapshotBuilder on each change; todo's
                       own watch and ui keep theirs O(changes) instead) of 100,000 user-like todos
                       read from a file, each build into the last one's storage, the first not
                       counted (ms, TodoBench build-file, best of 5). Goal (issue 38): at most 50 ms,
                       storage reused.
  (snapshot_build_tag) context: the same, grouped by tag (a todo under each of its tags)
  snapshot_build_plain the all + outline snapshot of 100,000 plain records, storage reused the same way
                       (TodoBench build; no baseline)
--smoke: 200 rows, 50 todos, 3 runs, 5 commits, 0.3 s idle, 1,000 items diffed and built.
"""
import json, os, subprocess, time
from types import SimpleNamespace

from . import userdata
from .figures import figure, table
from .proc import ROOT, log, peak_rss_mib, run, side_by_side_ms, wall_ms
from .stats import p95
from .userdata import list_sql

NAME = "core"
BUILD_GOAL_MS = 50
_FULL = SimpleNamespace(rows=100_000, rounds=3, cli_todos=10_000, cli_runs=41, imports=50_000, commits=60,
                        idle_s=4.0, settle_s=0.5, items=100_000)
SETTINGS = {"full": _FULL, "quick": _FULL,
            "smoke": SimpleNamespace(rows=200, rounds=1, cli_todos=50, cli_runs=3, imports=50, commits=5,
                                     idle_s=0.3, settle_s=0.1, items=1_000)}


def migrations_sql(work):
    """Every migration in one file: the C baseline creates the same schema as todo (the change
    feed's triggers included), so both sides of the insert figure do the same work per row."""
    folder = os.path.join(ROOT, "Migrations")
    schema = os.path.join(work, "schema.sql")
    with open(schema, "w") as f:
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".sql")):
            with open(os.path.join(folder, name)) as migration:
                f.write(migration.read() + "\n")
    return schema


def notify_p95_ms(bench, work, mode, count):
    """p95 latency from commit (writer process) to callback (watcher process), in ms."""
    path = os.path.join(work, f"notify-{mode}.sqlite")
    watcher = subprocess.Popen([bench, "watch-latency", path, str(count), mode], stdout=subprocess.PIPE, text=True)
    try:
        if watcher.stdout.readline().strip() != "ready":
            raise RuntimeError("the watcher did not start")
        commits = dict(line.split() for line in run([bench, "write", path, str(count)], timeout=60).splitlines())
        arrivals = dict(line.split() for line in watcher.communicate(timeout=30)[0].splitlines())
    finally:
        watcher.kill()
        watcher.wait()
    return p95([(int(arrivals[i]) - int(commits[i])) / 1e6 for i in commits])


def idle_cpu_percent(command, seconds, settle):
    """CPU time an idle process uses, as % of one core, from /proc/PID/schedstat (ns)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        process.stdout.readline()  # started
        time.sleep(settle)
        def cpu_ns():
            with open(f"/proc/{process.pid}/schedstat") as f:
                return int(f.read().split()[0])
        start, begin = cpu_ns(), time.perf_counter()
        time.sleep(seconds)
        used, elapsed = cpu_ns() - start, time.perf_counter() - begin
    finally:
        process.terminate()
        process.wait()
    return 100 * used / 1e9 / elapsed


def measure(ctx):
    s = SETTINGS[ctx.mode]
    bench, todo = ctx.binaries.core()
    baseline = ctx.binaries.baseline()
    work = ctx.work
    schema = migrations_sql(work)
    figures = []
    rows = f"{s.rows:,}"
    log(f"bench: core: insert and fetch ({rows} todos)...")
    # Best of three fresh files each, alternating, so a noisy moment does not decide.
    ours_rates, theirs_rates = [], []
    for round in range(s.rounds):
        ours_db, theirs_db = os.path.join(work, f"swift{round}.sqlite"), os.path.join(work, f"c{round}.sqlite")
        ours_rates.append(float(run([bench, "insert", ours_db, str(s.rows)])))
        theirs_rates.append(float(run([baseline, "insert", theirs_db, str(s.rows), schema])))
    figures.append(figure("core.insert", max(ours_rates), "rows/s", stat=f"best of {s.rounds}",
                          baseline=max(theirs_rates), baseline_name="C on libsqlite3", better="higher"))
    figures.append(figure("core.fetch", float(run([bench, "fetch", ours_db])), "rows/s", stat="best of 5",
                          baseline=float(run([baseline, "fetch", theirs_db])), baseline_name="C on libsqlite3",
                          better="higher"))

    log(f"bench: core: whole-process todo list / todo add ({s.cli_todos:,} user-like todos) vs. the sqlite3 shell...")
    small = userdata.copy(ctx, todo, os.path.join(work, "core-small.sqlite"), s.cli_todos)
    stat = f"p50 of {s.cli_runs}"
    ours, theirs = side_by_side_ms([todo, "--db", small, "list"], ["sqlite3", small, list_sql(small)], s.cli_runs)
    figures.append(figure("core.cli_list", ours, "ms", stat=stat, baseline=theirs, baseline_name="sqlite3 shell"))
    plain_small = userdata.plain(bench, os.path.join(work, "core-small-plain.sqlite"), s.cli_todos)
    ours, theirs = side_by_side_ms([todo, "--db", plain_small, "list"], ["sqlite3", plain_small, list_sql(plain_small)],
                                   s.cli_runs)
    figures.append(figure("core.cli_list_plain", ours, "ms", stat=stat, baseline=theirs, baseline_name="sqlite3 shell"))
    ours, theirs = side_by_side_ms(
        [todo, "--db", small, "add", "Buy milk", "--due", "2024-05-01"],
        ["sqlite3", small, "INSERT INTO todos (name, deadline, created) VALUES ('Buy milk', '2024-05-01', "
         "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')); SELECT last_insert_rowid();"], s.cli_runs)
    figures.append(figure("core.cli_add", ours, "ms", stat=stat, baseline=theirs, baseline_name="sqlite3 shell"))

    log(f"bench: core: peak memory of todo list over {rows} todos, user-like and plain...")
    big = userdata.copy(ctx, todo, os.path.join(work, "core-big.sqlite"), s.rows)
    figures.append(figure("core.list_rss", peak_rss_mib([todo, "--db", big, "list"]), "MiB", stat="peak",
                          baseline=peak_rss_mib(["sqlite3", big, list_sql(big)]), baseline_name="sqlite3 shell"))
    figures.append(figure("core.list_rss_plain", peak_rss_mib([todo, "--db", ours_db, "list"]), "MiB", stat="peak",
                          baseline=peak_rss_mib(["sqlite3", ours_db, list_sql(ours_db)]), baseline_name="sqlite3 shell"))

    log(f"bench: core: importing {s.imports:,} user-like todos...")
    json_file, sql_file = os.path.join(work, "import.json"), os.path.join(work, "import.sql")
    source = userdata.make(todo, os.path.join(work, "core-import-source.sqlite"), s.imports, lists=False)
    exported = json.loads(run([todo, "--no-config", "--db", source, "export"], timeout=600))
    for record in exported:
        record.pop("list", None)  # into the default list, as the shell's rows go
    with open(json_file, "w") as f:
        json.dump(exported, f)
    # The same rows as INSERTs of every column (the shell's own .mode insert), in one transaction.
    inserts = run(["sqlite3", "-cmd", ".mode insert todos", source, "SELECT * FROM todos ORDER BY id"], timeout=600)
    with open(sql_file, "w") as f:
        f.write("BEGIN IMMEDIATE;\n" + inserts + "COMMIT;\n")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(source + suffix):
            os.remove(source + suffix)
    ours_ms, theirs_ms = [], []
    for round in range(s.rounds):
        ours_file, theirs_file = os.path.join(work, f"import{round}.sqlite"), os.path.join(work, f"shell{round}.sqlite")
        run([todo, "--db", ours_file, "list"])  # creates the schema
        run([todo, "--db", theirs_file, "list"])
        ours_ms.append(wall_ms([todo, "--db", ours_file, "import", json_file]))
        theirs_ms.append(wall_ms(["sqlite3", theirs_file, f".read {sql_file}"]))
    figures.append(figure("core.import", s.imports / (min(ours_ms) / 1000), "rows/s", stat=f"best of {s.rounds}",
                          baseline=s.imports / (min(theirs_ms) / 1000), baseline_name="sqlite3 shell", better="higher"))

    log("bench: core: change notification latency and idle CPU...")
    figures.append(figure("core.notify", notify_p95_ms(bench, work, "inotify", s.commits), "ms", stat="p95",
                          baseline=notify_p95_ms(bench, work, "poll", s.commits), baseline_name="100 ms polling"))
    idle_db = userdata.make(todo, os.path.join(work, "core-idle.sqlite"), 100)
    figures.append(figure("core.idle_cpu", idle_cpu_percent([todo, "--db", idle_db, "watch", "--json"], s.idle_s, s.settle_s),
                          "% core", stat=f"over {s.idle_s:g} s", baseline=idle_cpu_percent([bench, "watch-latency", idle_db, "1000000", "poll"],
                                                              s.idle_s, s.settle_s),
                          baseline_name="100 ms polling"))

    log(f"bench: core: snapshot diff and build ({s.items:,} items)...")
    ours, theirs = (float(x) for x in run([bench, "diff", str(s.items)]).split())
    figures.append(figure("core.diff", ours, "ms", stat="best of 5", baseline=theirs,
                          baseline_name="difference(from:).inferringMoves()"))
    built = userdata.copy(ctx, todo, os.path.join(work, "core-build.sqlite"), s.items)
    figures.append(figure("core.snapshot_build", float(run([bench, "build-file", built, "done"], timeout=600)), "ms",
                          stat="best of 5", goal=BUILD_GOAL_MS, goal_of="value"))
    figures.append(figure("core.snapshot_build_tag", float(run([bench, "build-file", built, "tag"], timeout=600)), "ms",
                          stat="best of 5", context=True))
    figures.append(figure("core.snapshot_build_plain", float(run([bench, "build", str(s.items)])), "ms", stat="best of 5"))
    return {"rows": s.rows, "cli_todos": s.cli_todos, "imports": s.imports, "items": s.items}, figures


def show(detail, figures, out):
    print(f"core: {detail['rows']:,} plain rows inserted and fetched; todo list and add over {detail['cli_todos']:,} "
          f"user-like todos (cli_list_plain: plain ones); {detail['imports']:,} user-like todos imported; "
          f"{detail['items']:,} items diffed and built (snapshot_build: user-like todos)", file=out)
    table(figures, out)
