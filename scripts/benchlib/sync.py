"""The sync table (`todo sync` on CalDAV), todo and todo-sync as scripts/install builds them.
Radicale (servers.py: plain htpasswd user, storage in a temporary folder, 127.0.0.1, a free port,
log level info: requests are counted from its log, one line each, and the time it reports spending
on them is summed), a fresh server and VTODO collection per contender:
  send     1,000 new todos, user-like (userdata.records: priorities, tags, notes, repeats, a third
           subtasks): `todo sync` (a database made by `todo import`, `todo sync setup`) vs.
           vdirsyncer (a filesystem storage of 1,000 .ics files; discover, then sync timed) vs.
           the floor, a sequential PUT loop (If-None-Match: *) through one http.client connection
           (Radicale answers HTTP/1.0 and closes: it reconnects, and the count is printed); the
           same VTODOs (`todo export --format ics` of the same records, split). Goals: todo no
           slower than vdirsyncer, within 1.1x of the floor.
  noop     `todo sync` with nothing to do, whole process, p50 and p95 of 20 runs (--quick 10),
           and its requests, at 1,000 and at 10,000 todos; goal one request, p95 <= 30 ms
  changed  ten todos changed by the sqlite3 shell among 10,000 synced, then `todo sync` (5 rounds,
           --quick 2): p50 ms and requests
The 10,000 are not PUT (Radicale's PUT slows with the collection's size): they are written into
Radicale's storage folder, its cache is warmed by one PROPFIND and one REPORT (timed, context),
and a fresh database receives them with one `todo sync` (timed, context). --smoke: 10 sent, 20
synced, 5 changed, 2 no-op runs, 1 round.
"""
import base64, http.client, os, resource, tempfile, time
from types import SimpleNamespace

from .figures import figure, size_label
from .proc import PROCESS_LIMIT_S, log, run, run_timed
from .servers import (PASSWORD, SERVER_PYTHON, USER, Radicale, make_database, noop_sync, stop_all, sync_json,
                      todo_env, vtodo_objects, write_objects)
from .stats import p50, p95

NAME = "sync"
_FULL = SimpleNamespace(send=1_000, big=10_000, noop_runs=20, changed=10, changed_rounds=5)
SETTINGS = {"full": _FULL, "quick": SimpleNamespace(**{**vars(_FULL), "noop_runs": 10, "changed_rounds": 2}),
            "smoke": SimpleNamespace(send=10, big=20, noop_runs=2, changed=5, changed_rounds=1)}
GOALS = {"send_vs_vdirsyncer": 1.0, "send_vs_floor": 1.1, "noop_ms": 30, "noop_requests": 1}
SYNC_COLLECTION = (b'<?xml version="1.0" encoding="utf-8"?>\n<D:sync-collection xmlns:D="DAV:"><D:sync-token/>'
                   b'<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')


def counted(server, mark, seconds, cpu):
    """A contender's figures: wall and client CPU seconds, and the requests Radicale logged since
    the mark, with the time it reports spending on them."""
    methods, server_seconds = server.requests(mark)
    return {"seconds": seconds, "client_cpu": cpu, "requests": methods, "server_seconds": server_seconds}


def send_with_todo(todo, work, server, count):
    db = make_database(todo, work, "send-todo", count)
    env = todo_env(work)
    run_timed([todo, "--db", db, "sync", "setup", server.url, "--user", USER], env=env, limit=60)
    mark = server.mark()
    seconds, cpu, out = run_timed([todo, "--db", db, "sync", "--json"], env=env)
    if sync_json(out)["sent"] != count:
        raise RuntimeError(f"todo sync sent {sync_json(out)['sent']}, not {count}")
    return counted(server, mark, seconds, cpu), db


def send_with_vdirsyncer(objects, work, server):
    """vdirsyncer (the Debian package): a filesystem storage of one .ics file per VTODO and a
    caldav storage on the collection, `collections = null` (both sides are the collections
    themselves); `vdirsyncer discover` first (prompts answered yes), then `vdirsyncer sync` timed."""
    folder = tempfile.mkdtemp(prefix="vdirsyncer-", dir=work)
    local = os.path.join(folder, "local")
    os.makedirs(local)
    write_objects(local, objects)
    config = os.path.join(folder, "config")
    with open(config, "w") as f:
        f.write(f'[general]\nstatus_path = "{folder}/status/"\n\n'
                f'[pair bench]\na = "bench_local"\nb = "bench_remote"\ncollections = null\n\n'
                f'[storage bench_local]\ntype = "filesystem"\npath = "{local}/"\nfileext = ".ics"\n\n'
                f'[storage bench_remote]\ntype = "caldav"\nurl = "{server.url}"\n'
                f'username = "{USER}"\npassword = "{PASSWORD}"\n')
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder}
    run_timed(["vdirsyncer", "-c", config, "discover"], env=env, input="y\n" * 20, limit=120)
    mark = server.mark()
    seconds, cpu, _ = run_timed(["vdirsyncer", "-c", config, "sync"], env=env)
    return counted(server, mark, seconds, cpu)


def send_with_put_loop(objects, server):
    """The floor: one PUT after another, If-None-Match: *, through one http.client connection
    object reused. Radicale's server (wsgiref) speaks HTTP/1.0 and closes the connection after
    each answer, so http.client reconnects for each request: counted in `connections`."""
    auth = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    mark = server.mark()
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connections = 0
    try:
        for uid, text in objects.items():
            if connection.sock is None:
                connections += 1
            connection.request("PUT", f"/{USER}/tasks/{uid}.ics", body=text.encode(),
                               headers={"Authorization": auth, "If-None-Match": "*",
                                        "Content-Type": "text/calendar; charset=utf-8"})
            response = connection.getresponse()
            response.read()
            if response.status not in (201, 204):
                raise RuntimeError(f"PUT answered {response.status}")
            http_version = response.version
    finally:
        connection.close()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    figures = counted(server, mark, seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    figures.update(connections=connections, http_version="HTTP/1.0" if http_version == 10 else "HTTP/1.1")
    return figures


def noop_figures(todo, work, db, server, runs):
    """`todo sync --json` with nothing to do, `runs` times: whole-process wall ms (p50, p95)
    and the requests each made (from Radicale's log)."""
    env = todo_env(work)
    times, requests, server_ms = [], [], []
    deadline = time.monotonic() + 120
    for _ in range(runs):
        if time.monotonic() > deadline:
            break
        seconds, methods, server_seconds = noop_sync(todo, db, env, server)
        times.append(seconds * 1000)
        requests.append(sum(methods.values()))
        server_ms.append(server_seconds * 1000)
    return {"p50": p50(times), "p95": p95(times), "runs": len(times), "requests": max(requests),
            "requests_min": min(requests), "methods": methods, "server_ms_p50": p50(server_ms), "unit": "ms"}


def changed_figures(todo, work, db, server, size, changed, rounds):
    """`changed` todos spread over the list changed through the sqlite3 shell (one UPDATE), then
    one `todo sync --json` timed; `rounds` times, other todos each round."""
    env = todo_env(work)
    times, requests, server_ms = [], [], []
    for round in range(rounds):
        ids = [1 + (round * 7_919 + i * (size // changed)) % size for i in range(changed)]
        run(["sqlite3", db, f"UPDATE todos SET name = name || ' (changed {round})' WHERE id IN ({', '.join(map(str, ids))});"],
            timeout=60)
        mark = server.mark()
        seconds, _, out = run_timed([todo, "--db", db, "sync", "--json"], env=env, limit=120)
        report = sync_json(out)
        if report["sent"] != changed:
            raise RuntimeError(f"todo sync sent {report['sent']} after {changed} changes: {report}")
        methods, server_seconds = server.requests(mark)
        times.append(seconds * 1000)
        requests.append(methods)
        server_ms.append(server_seconds * 1000)
    return {"p50": p50(times), "max": max(times), "rounds": len(times), "changed": changed, "size": size,
            "requests": max(sum(m.values()) for m in requests), "methods": requests[-1],
            "server_ms_p50": p50(server_ms), "unit": "ms"}


def measure(ctx):
    """Sending new todos (todo sync, vdirsyncer, a PUT loop), a sync with nothing to do at the
    small and the big size, and changed todos among the big, all on Radicale over loopback."""
    s = SETTINGS[ctx.mode]
    todo, work = ctx.binaries.sync_todo(), ctx.work
    try:
        table = {"server": "Radicale " + run([SERVER_PYTHON, "-c", "import radicale; print(radicale.VERSION)"]).strip(),
                 "vdirsyncer": run(["vdirsyncer", "--version"]).strip().split()[-1], "count": s.send}
        objects = vtodo_objects(todo, work, "send-objects", s.send)

        log(f"bench: sync: sending {s.send:,} todos to Radicale: todo sync...")
        todo_server = Radicale(work, "todo")
        send = {}
        send["todo"], db = send_with_todo(todo, work, todo_server, s.send)
        log("bench: sync: ... vdirsyncer...")
        vdir_server = Radicale(work, "vdirsyncer")
        send["vdirsyncer"] = send_with_vdirsyncer(objects, work, vdir_server)
        vdir_server.stop()
        log("bench: sync: ... a sequential PUT loop...")
        floor_server = Radicale(work, "floor")
        send["floor"] = send_with_put_loop(objects, floor_server)
        floor_server.stop()
        for name, server in (("todo", todo_server), ("vdirsyncer", vdir_server), ("floor", floor_server)):
            send[name]["objects_per_s"] = s.send / send[name]["seconds"]
            if server.stored() != s.send:
                raise RuntimeError(f"{name}'s collection holds {server.stored()} objects, not {s.send}")
        table["send"] = send

        log(f"bench: sync: nothing to do at {s.send:,}...")
        table["noop"] = {s.send: noop_figures(todo, work, db, todo_server, s.noop_runs)}
        todo_server.stop()

        # The big collection: sending it through Radicale's PUTs would take many minutes, so the
        # objects are written straight into its storage folder (what Radicale's PUT leaves there),
        # and a fresh database receives them with one `todo sync`.
        log(f"bench: sync: receiving {s.big:,} todos written into Radicale's storage...")
        big_server = Radicale(work, "big")
        write_objects(big_server.collection, vtodo_objects(todo, work, "big-objects", s.big))
        # Radicale parses every item it has not seen into its item cache on the first request
        # that needs them (longer than todo-sync's 30 s time-out at 10,000): one PROPFIND and one
        # sync-collection REPORT warm it first (timed: context).
        warm_start = time.perf_counter()
        for method, depth, body in (("PROPFIND", "0", None), ("REPORT", "1", SYNC_COLLECTION)):
            status = big_server.request(method, f"/{USER}/tasks/", body, {"Depth": depth,
                                        "Content-Type": "application/xml; charset=utf-8"}, timeout=PROCESS_LIMIT_S)
            if status != 207:
                raise RuntimeError(f"{method} answered {status}")
        warm = time.perf_counter() - warm_start
        big_db = os.path.join(work, "big.sqlite")
        env = todo_env(work)
        run_timed([todo, "--db", big_db, "sync", "setup", big_server.url, "--user", USER], env=env, limit=120)
        mark = big_server.mark()
        seconds, cpu, out = run_timed([todo, "--db", big_db, "sync", "--json"], env=env)
        report = sync_json(out)
        if report["received"] != s.big:
            raise RuntimeError(f"todo sync received {report['received']}, not {s.big}")
        table["receive"] = dict(counted(big_server, mark, seconds, cpu), count=s.big, server_warm_up_seconds=warm)
        log(f"bench: sync: nothing to do at {s.big:,}...")
        table["noop"][s.big] = noop_figures(todo, work, big_db, big_server, s.noop_runs)
        log(f"bench: sync: {s.changed} changed among {s.big:,}...")
        table["changed"] = changed_figures(todo, work, big_db, big_server, s.big, s.changed, s.changed_rounds)
    finally:
        stop_all()
    return table, figures(table)


def figures(table):
    send, count = table["send"], table["count"]
    out = [figure(f"sync.send_vs_{name}@{size_label(count)}", send["todo"]["seconds"], "s", stat="once",
                  baseline=send[name]["seconds"], baseline_name=label, goal=GOALS[f"send_vs_{name}"])
           for name, label in (("vdirsyncer", "vdirsyncer"), ("floor", "sequential PUT loop"))]
    for size, f in table["noop"].items():
        out.append(figure(f"sync.noop@{size_label(size)}", f["p95"], "ms", stat=f"p95 of {f['runs']}",
                          goal=GOALS["noop_ms"], goal_of="value"))
        out.append(figure(f"sync.noop_requests@{size_label(size)}", f["requests"], "requests", stat="max",
                          goal=GOALS["noop_requests"], goal_of="value"))
    c = table["changed"]
    out.append(figure(f"sync.changed@{size_label(c['size'])}", c["p50"], "ms", stat=f"p50 of {c['rounds']}"))
    r = table["receive"]
    out.append(figure(f"sync.receive@{size_label(r['count'])}", r["seconds"], "s", stat="once", context=True))
    return out


def show(sync, figures_, out):
    def requests(methods):
        return f"{sum(methods.values()):,}"
    by_name = {f["name"]: f for f in figures_}
    print(f"sync: {sync['server']} on 127.0.0.1, info-level log (requests counted from it), a fresh server "
          f"and collection per contender; todo and todo-sync as scripts/install builds them", file=out)
    print(f"send {sync['count']:,} new todos  {'seconds':>9}{'objects/s':>11}{'requests':>10}{'client cpu s':>14}"
          f"{'server s (sum)':>16}", file=out)
    labels = {"todo": "todo sync", "vdirsyncer": f"vdirsyncer {sync['vdirsyncer']}", "floor": "PUT loop (floor)"}
    for name, f in sync["send"].items():
        print(f"  {labels[name]:<19}{f['seconds']:>9.2f}{f['objects_per_s']:>11.1f}{requests(f['requests']):>10}"
              f"{f['client_cpu']:>14.2f}{f['server_seconds']:>16.2f}", file=out)
    vdir, floor = (by_name[f"sync.send_vs_{name}@{size_label(sync['count'])}"] for name in ("vdirsyncer", "floor"))
    verdict = lambda f: {True: "met", False: "MISSED", None: "not judged"}[f["passed"]]
    print(f"  todo/vdirsyncer {vdir['ratio']:.2f}x the time (goal <= {GOALS['send_vs_vdirsyncer']}: {verdict(vdir)}); "
          f"todo/floor {floor['ratio']:.2f}x (goal <= {GOALS['send_vs_floor']}: {verdict(floor)})", file=out)
    print(f"  the floor: PUTs one after another through one http.client connection object; Radicale answers "
          f"{sync['send']['floor']['http_version']} and closes, so it connected {sync['send']['floor']['connections']:,} "
          f"times", file=out)
    print(f"nothing to do          {'p50 ms':>10}{'p95 ms':>9}{'requests':>10}{'server ms':>11}  goal 1 request, "
          f"p95 <= {GOALS['noop_ms']} ms", file=out)
    for size, f in sync["noop"].items():
        judged = [by_name[f"sync.noop{kind}@{size_label(size)}"]["passed"] for kind in ("", "_requests")]
        ok = None if None in judged else all(judged)
        methods = ", ".join(f"{count} {method}" for method, count in f["methods"].items())
        print(f"  at {int(size):,} todos{'':<{9 - len(f'{int(size):,}')}}{f['p50']:>10.1f}{f['p95']:>9.1f}"
              f"{f['requests']:>10}{f['server_ms_p50']:>11.1f}  {verdict({'passed': ok})} ({methods}; {f['runs']} runs)",
              file=out)
    c = sync["changed"]
    methods = ", ".join(f"{count} {method}" for method, count in c["methods"].items())
    print(f"{c['size']:,} synced, {c['changed']} changed (sqlite3 shell): p50 {c['p50']:.1f} ms, max {c['max']:.1f} ms "
          f"over {c['rounds']} rounds; {c['requests']} requests ({methods}); Radicale's own time {c['server_ms_p50']:.1f} ms",
          file=out)
    r = sync["receive"]
    print(f"(context) a fresh database receiving {r['count']:,} todos written into Radicale's storage: {r['seconds']:.2f} s, "
          f"{requests(r['requests'])} requests ({', '.join(f'{n} {m}' for m, n in r['requests'].items())}), "
          f"Radicale's own time {r['server_seconds']:.2f} s; before it, Radicale's first PROPFIND and REPORT "
          f"(its item cache, parsing the {r['count']:,} files) took {r['server_warm_up_seconds']:.1f} s", file=out)
    print("server s / server ms: the time Radicale's log reports for the requests, summed (requests in flight together "
          "overlap); client cpu s: user + system of the process and the children it waited for (todo and todo-sync).",
          file=out)
