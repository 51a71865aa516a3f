"""The transport figures (issue 23's "Must show"), todo and todo-sync as the sync part builds them:
todo-sync and todo sync against the curl tool (libcurl's own command line, /usr/bin/curl), side by
side, on Radicale (plain htpasswd user alice, Basic) and on Xandikos (--defaults, no
authentication, --route-prefix /), each a fresh server on a free port of 127.0.0.1 with its data in
a temporary folder, stopped by pid (servers.py). Radicale answers HTTP/1.0 and closes every
connection; Xandikos keeps it alive. p50 and p95 of every figure; the goal is on p50.
  start     todo-sync from its start to its answer to {"op":"hello"} vs `curl --version` from
            start to exit (ms; 5 rounds of 20 each, --quick 10), goal <= 1.2x
  send      1,000 new todos (user-like: servers.make_database): the whole `todo sync` of a database made by `todo import` (after `todo
            sync setup`) vs the sequential keep-alive PUT floor: curl with the 1,000 PUTs
            (If-None-Match: *, the same VTODOs, `todo export --format ics` split) in one process
            (a config file of upload-file/url pairs); goal <= 1.0x. Beside it todo-sync alone, from
            its start: open, then one write of the 1,000 creates (it keeps 4 in flight), against the
            same floor, same goal. Every contender sends to a fresh collection (extended MKCOL) every
            round, the three taking turns going first, 5 rounds. PUTs cost ~25 ms on both servers, so
            --quick sends 200 per contender and round, then one more `todo sync` of the 1,000
            (timed: context) fills the collection of the figures below
  cpu       on the collection the last `todo sync` filled (1,000 todos): CPU (user + system, from
            os.wait4) of todo-sync opened on it making 1 + N requests of one kind minus one making 1,
            over N (N = 100, --quick 40), vs curl making the same request (method, Depth, body,
            user and password) 1 + N times in one process minus once, over N (ms per request);
            probe (PROPFIND Depth 0), changes (sync-collection REPORT, the current token: nothing
            new), fetch (calendar-multiget of one href); 5 rounds; goal <= 1.2x
  noop      `todo sync` with nothing to do on that synced database, the whole process (it starts
            todo-sync) vs one `curl` sending the same sync-collection REPORT with the same token to
            the same collection with the same credentials (ms; 5 rounds of 10 each, --quick 4);
            goal <= 1.1x
Then the same CPU and no-op figures on a collection of 10,000 todos (a todo sync of 10,000 would take
many minutes: they are written as files into the server's storage folder, committed with git in
Xandikos's repository; a fresh database receives them in one timed `todo sync` first).
--smoke: 10 todos (5 sent a round, 20 in the large collection), 1 round, 2 starts, 2 requests, 1 no-op sync.
"""
import json, os, subprocess, sys, tempfile, time
from types import SimpleNamespace

from .figures import figure, judge, size_label
from .proc import PROCESS_LIMIT_S, kill_group, log, run, run_timed, watchdog
from .servers import (PASSWORD, USER, Radicale, Xandikos, make_database, server_version, setup_and_sync, stop_all,
                      sync_json, todo_env, vtodo_objects, write_objects)
from .stats import p50, p95

NAME = "transport"
_FULL = SimpleNamespace(count=1_000, large=10_000, rounds=5, send=1_000, starts=20, requests=100, noops=10)
SETTINGS = {"full": _FULL,
            "quick": SimpleNamespace(**{**vars(_FULL), "send": 200, "starts": 10, "requests": 40, "noops": 4}),
            "smoke": SimpleNamespace(count=10, large=20, rounds=1, send=5, starts=2, requests=2, noops=1)}
GOALS = {"start": 1.2, "cpu": 1.2, "noop": 1.1, "send": 1.0}
KINDS = ("probe", "changes", "fetch")
PROPFIND_PROBE = ('<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
                  '<D:prop><D:resourcetype/><C:supported-calendar-component-set/><D:sync-token/><D:displayname/>'
                  '</D:prop></D:propfind>')


def sync_collection_body(token):
    """The sync-collection REPORT todo-sync sends for `changes {token}` (CalDAVClient.syncCollection)."""
    escaped = token.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return ('<?xml version="1.0" encoding="utf-8"?>\n<D:sync-collection xmlns:D="DAV:"><D:sync-token>' + escaped +
            '</D:sync-token><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')


def multiget_body(hrefs):
    """The calendar-multiget todo-sync sends for `fetch {hrefs}` (CalDAVClient)."""
    listed = "".join(f"<D:href>{href}</D:href>" for href in hrefs)
    return ('<?xml version="1.0" encoding="utf-8"?>\n<C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            '<D:prop><D:getetag/><C:calendar-data/></D:prop>' + listed + '</C:calendar-multiget>')


class TransportServer:
    """One server of the transport part, with fresh VTODO collections made on demand."""

    def __init__(self, kind, work):
        self.kind = kind
        self.server = Radicale(work, "transport") if kind == "radicale" else Xandikos(work, "transport")
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.parent = f"/{USER}/" if kind == "radicale" else "/user/calendars/"
        self.version = server_version(kind)
        self.user = self.server.user

    def auth(self):
        """The curl tool's credentials: the same user and password, Basic (sent at once)."""
        return ["-u", f"{USER}:{PASSWORD}"] if self.user else []

    def collection(self, name):
        """A fresh VTODO collection; its path."""
        return self.server.mkcol(f"{self.parent}{name}/")

    def storage(self, path):
        """The folder of a collection in the server's storage."""
        root = (os.path.join(self.server.storage, "collection-root") if self.kind == "radicale"
                else os.path.join(self.server.folder, "data"))
        return os.path.join(root, path.strip("/"))


class Helper:
    """todo-sync in its own process group, fed requests one line each, opened on `path` of the
    server when one is given; `finish` closes its stdin and returns its CPU (user + system,
    os.wait4). A watchdog kills it past the time limit."""

    def __init__(self, companion, work, server=None, path=None):
        self.start = time.perf_counter()
        env = todo_env(work, password=bool(server.user)) if server else {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                                                                            "HOME": work}
        self.process = subprocess.Popen([companion], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        self.timer = watchdog(self.process)
        if path:
            try:
                self.ask({"op": "open", "url": server.base + path, "user": server.user, "password_command": None})
            except BaseException:
                self.finish()
                raise

    def ask(self, request, check=True):
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if check and (not line or line.startswith(b'{"error"')):
            raise RuntimeError(f"todo-sync {request['op']} answered {line[:300]!r}")
        return json.loads(line)

    def finish(self):
        try:
            self.process.stdin.close()
            _, status, usage = os.wait4(self.process.pid, 0)
            self.process.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        finally:
            self.timer.cancel()
            if self.process.returncode is None:
                kill_group(self.process)


def curl(arguments, limit=PROCESS_LIMIT_S):
    """The curl tool run once: wall seconds, CPU seconds (os.wait4) and its stdout (-w lines)."""
    start = time.perf_counter()
    process = subprocess.Popen(["curl", "-sS"] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    timer = watchdog(process, limit)
    try:
        out, err = process.stdout.read(), process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        timer.cancel()
        if process.returncode is None:
            kill_group(process)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise RuntimeError(f"curl exited {process.returncode}: {err.decode(errors='replace')[-500:]}")
    pairs = [line.split() for line in out.decode().splitlines() if line.strip()]
    # -w '%{http_code} %{num_connects}' lines: the statuses, and the connections made
    return seconds, usage.ru_utime + usage.ru_stime, [int(status) for status, _ in pairs], sum(int(n) for _, n in pairs)


def curl_same_request(server, path, kind, count, token=None, hrefs=None):
    """The curl tool sending `count` times the request todo-sync sends for `kind` (its method,
    headers, body), every URL in one process, so over one connection where the server keeps it."""
    method, depth, body = {"probe": ("PROPFIND", "0", PROPFIND_PROBE),
                           "changes": ("REPORT", "0", token is not None and sync_collection_body(token)),
                           "fetch": ("REPORT", "1", hrefs is not None and multiget_body(hrefs))}[kind]
    arguments = (server.auth() + ["-X", method, "-H", f"Depth: {depth}", "-H", "Content-Type: application/xml; charset=utf-8",
                                  "--data-binary", body, "-w", "%{http_code} %{num_connects}\\n"]
                 + [server.base + path] * count + ["-o", "/dev/null"] * count)
    seconds, cpu, statuses, connections = curl(arguments)
    if statuses != [207] * count:
        raise RuntimeError(f"curl {method} answered {sorted(set(statuses))}")
    return seconds, cpu, connections


def helper_requests(companion, work, server, path, kind, count, token=None, hrefs=None):
    """todo-sync opened on the collection, then `count` requests of `kind`: its CPU (wait4)."""
    helper = Helper(companion, work, server, path)
    try:
        request = {"probe": {"op": "probe"}, "changes": {"op": "changes", "token": token},
                   "fetch": {"op": "fetch", "hrefs": hrefs}}[kind]
        for _ in range(count):
            answer = helper.ask(request)
            if kind == "changes" and (answer.get("kind") != "delta" or answer.get("changed") or answer.get("removed")):
                raise RuntimeError(f"changes since the current token answered {str(answer)[:300]}")
    finally:
        cpu = helper.finish()
    return cpu


def pair(ours, theirs, unit):
    """Our samples and the curl tool's: p50 and p95 of each, their ratios."""
    a = {"p50": p50(ours), "p95": p95(ours), "samples": len(ours), "unit": unit}
    b = {"p50": p50(theirs), "p95": p95(theirs), "samples": len(theirs), "unit": unit}
    return {"todo": a, "curl": b, "ratio_p50": a["p50"] / b["p50"], "ratio_p95": a["p95"] / b["p95"]}


def in_turns(rounds, *contenders):
    """Each contender once a round, `rounds` rounds, each going first in turn."""
    for round in range(rounds):
        shift = round % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            contender(round)


def start_up_figures(companion, work, rounds, runs):
    """todo-sync from its start to its hello answer vs `curl --version` (start to exit), ms."""
    ours, theirs = [], []
    def helper(round):
        for _ in range(runs):
            process = Helper(companion, work)
            try:
                hello = process.ask({"op": "hello"})
                ours.append((time.perf_counter() - process.start) * 1000)
            finally:
                process.finish()
            if "version" not in hello:
                raise RuntimeError(f"hello answered {hello}")
    def by_curl(round):
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(["curl", "--version"], check=True, stdout=subprocess.DEVNULL)
            theirs.append((time.perf_counter() - start) * 1000)
    in_turns(rounds, helper, by_curl)
    return pair(ours, theirs, "ms")


def put_floor(server, path, folder, objects):
    """The sequential PUT floor: the curl tool with every PUT (If-None-Match: *) in one process
    (a config file of upload-file/url pairs), one keep-alive connection where the server keeps it."""
    config = os.path.join(folder, "floor.curl")
    with open(config, "w") as f:
        for uid in objects:
            f.write(f'upload-file = "{os.path.join(folder, uid + ".ics")}"\nurl = "{server.base}{path}{uid}.ics"\n')
    arguments = server.auth() + ["-H", "If-None-Match: *", "-H", "Content-Type: text/calendar; charset=utf-8", "-H", "Expect:",
                                 "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\\n", "-K", config]
    seconds, cpu, statuses, connections = curl(arguments)
    if len(statuses) != len(objects) or any(status not in (201, 204) for status in statuses):
        raise RuntimeError(f"the curl PUTs answered {sorted(set(statuses))} ({len(statuses)} answers)")
    return seconds, cpu, connections


def helper_writes(companion, work, server, path, objects):
    """todo-sync alone, from its start: open, then one `write` of every object as a create (it
    keeps 4 in flight); seconds to the answer, its CPU."""
    helper = Helper(companion, work, server, path)
    try:
        answer = helper.ask({"op": "write", "writes": [{"method": "create", "href": f"{path}{uid}.ics", "text": text}
                                                       for uid, text in objects.items()]})
        seconds = time.perf_counter() - helper.start
    finally:
        cpu = helper.finish()
    outcomes = [outcome["outcome"] for outcome in answer["outcomes"]]
    if outcomes != ["written"] * len(objects):
        raise RuntimeError(f"todo-sync write answered {sorted(set(outcomes))}")
    return seconds, cpu


def sync_new(todo, work, server, env, name, count):
    """A database of `count` new todos (todo import) synced whole to a fresh collection: the
    sync's wall and CPU seconds, the database and the collection's path."""
    db, path = make_database(todo, work, f"transport-{server.kind}-{name}", count), server.collection(name)
    seconds, cpu, report = setup_and_sync(todo, db, server.base + path, env, user=server.user)
    if report["sent"] != count:
        raise RuntimeError(f"todo sync sent {report['sent']}, not {count}")
    return seconds, cpu, db, path


def server_figures(kind, todo, companion, work, objects, s):
    """Everything measured against one server (a fresh one): the sends (each contender to its own
    fresh collection, every round), then, on the collection todo sync filled last, the CPU per
    request and the sync with nothing to do; then the same on a large collection."""
    server = TransportServer(kind, work)
    env = todo_env(work, password=bool(server.user))
    sending = dict(list(objects.items())[:s.send])
    log(f"bench: transport: {kind} {server.version}: sending {len(sending):,} todos, {s.rounds} rounds "
        f"(todo sync, curl PUTs, todo-sync's parallel writes)...")
    try:
        folder = tempfile.mkdtemp(prefix="transport-objects-", dir=work)
        write_objects(folder, sending)
        sends, cpu = {"todo": [], "curl": [], "helper": []}, {"todo": [], "curl": [], "helper": []}
        connections, last = [], {}
        def by_todo(round):
            seconds, used, last["db"], last["path"] = sync_new(todo, work, server, env, f"todo{round}", len(sending))
            sends["todo"].append(seconds)
            cpu["todo"].append(used)
        def by_curl(round):
            seconds, used, connected = put_floor(server, server.collection(f"curl{round}"), folder, sending)
            sends["curl"].append(seconds)
            cpu["curl"].append(used)
            connections.append(connected)
        def by_helper(round):
            seconds, used = helper_writes(companion, work, server, server.collection(f"helper{round}"), sending)
            sends["helper"].append(seconds)
            cpu["helper"].append(used)
        in_turns(s.rounds, by_todo, by_curl, by_helper)
        figures = {"server": f"{kind} {server.version}", "count": len(objects), "sent": len(sending)}
        figures["send"] = dict(pair(sends["todo"], sends["curl"], "s"), connections=max(connections))
        figures["send_helper"] = pair(sends["helper"], sends["curl"], "s")
        figures["send_cpu"] = {name: p50(values) for name, values in cpu.items()}
        if len(sending) < len(objects):
            # --quick sends fewer per round: one more `todo sync` (timed, context) fills a
            # collection with all of them for the figures below.
            log(f"bench: transport: {kind}: filling a collection with {len(objects):,} todos (one todo sync)...")
            figures["fill_s"], _, last["db"], last["path"] = sync_new(todo, work, server, env, "fill", len(objects))

        # On the collection todo sync filled last: the CPU per request and the sync with nothing to do.
        log(f"bench: transport: {kind}: CPU per request ({s.requests} of each), a sync with nothing to do...")
        figures.update(collection_figures(server, env, todo, companion, work, last["db"], last["path"], len(objects), s))

        # The same on a collection of s.large todos, then received whole by a fresh database.
        # Filled without PUTs, which would take many minutes (each costs more as the collection
        # grows, on both servers): the files go straight into the server's storage folder, which
        # Radicale reads as it is and Xandikos reads from its git repository's last commit.
        large = vtodo_objects(todo, work, f"transport-{kind}-large-objects", s.large)
        how = "files in its storage folder" if kind == "radicale" else "one git commit in its repository"
        log(f"bench: transport: {kind}: filling a collection with {len(large):,} todos ({how}), "
            f"receiving them (one todo sync), then the same figures...")
        large_path = server.collection("large")
        began = time.perf_counter()
        folder = server.storage(large_path)
        write_objects(folder, large)
        if kind == "xandikos":
            git = ["git", "-C", folder, "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
            run(git + ["add", "-A"], timeout=300)
            run(git + ["commit", "-q", "-m", f"{len(large)} todos"], timeout=300)
        fill_s = time.perf_counter() - began
        # Radicale reads a folder of new files whole at its first request (over 30 s for 10,000):
        # one listing first, and the longest stall window todo sync allows.
        subprocess.run(["curl", "-sS", "-o", "/dev/null", "-X", "PROPFIND", "-H", "Depth: 1"] + server.auth()
                       + [server.base + large_path], check=True, timeout=PROCESS_LIMIT_S)
        env = dict(env, TODO_SYNC_TIMEOUT="300")
        large_db = os.path.join(work, f"transport-{kind}-large.sqlite")
        receive_s, receive_cpu, report = setup_and_sync(todo, large_db, server.base + large_path, env, user=server.user)
        if report["received"] != len(large):
            raise RuntimeError(f"todo sync received {report['received']}, not {len(large)}")
        figures["large"] = {"count": len(large), "filled_by": how, "fill_s": fill_s, "receive_s": receive_s,
                            "receive_cpu_s": receive_cpu}
        figures["large"].update(collection_figures(server, env, todo, companion, work, large_db, large_path, len(large), s))
        return figures
    finally:
        server.server.stop()


def collection_figures(server, env, todo, companion, work, db, path, count, s):
    """On a collection of `count` todos that the database `db` has synced: the CPU per request of
    todo-sync and curl, and the sync with nothing to do (whole `todo sync` vs one curl REPORT)."""
    helper = Helper(companion, work, server, path)
    try:
        listing = helper.ask({"op": "changes", "token": None})
    finally:
        helper.finish()
    token, hrefs = listing["token"], [item["href"] for item in listing["items"]][:1]
    if len(listing["items"]) != count or not token:
        raise RuntimeError(f"the collection lists {len(listing['items'])} items, token {token!r}")
    figures = {"cpu": {}}
    for kind in KINDS:
        ours, theirs, connected = [], [], []
        def by_helper(round):
            one = helper_requests(companion, work, server, path, kind, 1, token, hrefs)
            many = helper_requests(companion, work, server, path, kind, s.requests + 1, token, hrefs)
            ours.append((many - one) / s.requests * 1000)
        def by_curl(round):
            one = curl_same_request(server, path, kind, 1, token, hrefs)[1]
            _, many, connections = curl_same_request(server, path, kind, s.requests + 1, token, hrefs)
            theirs.append((many - one) / s.requests * 1000)
            connected.append(connections)
        in_turns(s.rounds, by_helper, by_curl)
        figures["cpu"][kind] = dict(pair(ours, theirs, "ms"), curl_connections=connected[-1])

    ours, theirs = [], []
    def by_todo(round):
        for _ in range(s.noops):
            seconds, _, out = run_timed([todo, "--db", db, "sync", "--json"], env=env, limit=60)
            report = sync_json(out)
            if report["sent"] or report["received"] or report["deleted"]:
                raise RuntimeError(f"a sync with nothing to do did something: {report}")
            ours.append(seconds * 1000)
    def by_curl(round):
        for _ in range(s.noops):
            theirs.append(curl_same_request(server, path, "changes", 1, token)[0] * 1000)
    in_turns(s.rounds, by_todo, by_curl)
    figures["noop"] = pair(ours, theirs, "ms")
    return figures


def measure(ctx):
    """Issue 23's figures: todo-sync and todo sync against the curl tool, on Radicale and Xandikos."""
    s = SETTINGS[ctx.mode]
    todo = ctx.binaries.sync_todo()
    companion = os.path.join(os.path.dirname(todo), "todo-sync")
    part = {"count": s.count, "rounds": s.rounds, "curl": " ".join(run(["curl", "--version"]).split()[:2]),
            "servers": {}}
    log("bench: transport: start-up, todo-sync's hello vs curl --version...")
    part["start"] = start_up_figures(companion, ctx.work, s.rounds, s.starts)
    objects = vtodo_objects(todo, ctx.work, "transport-objects", s.count)
    try:
        for kind in ("radicale", "xandikos"):
            part["servers"][kind] = server_figures(kind, todo, companion, ctx.work, objects, s)
            log(f"bench: transport: {kind}'s figures (the table at the end repeats them):")
            show_server(part["servers"][kind], judge(figures_of_server(kind, part["servers"][kind]), ctx.mode), sys.stderr)
    finally:
        stop_all()
    return part, figures(part)


def pair_figure(name, p, goal, unit):
    return figure(name, p["todo"]["p50"], unit, stat=f"p50 of {p['todo']['samples']}", baseline=p["curl"]["p50"],
                  baseline_name="curl", goal=goal)


def figures_of_server(kind, f):
    out = [pair_figure(f"transport.{kind}.send@{size_label(f['sent'])}", f["send"], GOALS["send"], "s"),
           pair_figure(f"transport.{kind}.send_helper@{size_label(f['sent'])}", f["send_helper"], GOALS["send"], "s")]
    for at in (f, f["large"]):
        label = size_label(at["count"])
        out += [pair_figure(f"transport.{kind}.cpu_{request}@{label}", at["cpu"][request], GOALS["cpu"], "ms")
                for request in KINDS]
        out.append(pair_figure(f"transport.{kind}.noop@{label}", at["noop"], GOALS["noop"], "ms"))
    return out


def figures(part):
    out = [pair_figure("transport.start", part["start"], GOALS["start"], "ms")]
    for kind, f in part["servers"].items():
        out += figures_of_server(kind, f)
    return out


def row(label, p, f, digits, out):
    a, b = p["todo"], p["curl"]
    verdict = {True: "met", False: "MISSED", None: "not judged"}[f["passed"]]
    print(f"  {label:<37}{a['p50']:>9.{digits}f}{a['p95']:>9.{digits}f}{b['p50']:>9.{digits}f}"
          f"{b['p95']:>9.{digits}f}{p['ratio_p50']:>8.2f}x{p['ratio_p95']:>7.2f}x"
          f"  <= {f['goal']['at_most']}x {verdict}", file=out)


def show_server(f, figures_, out):
    """One server's rows of the transport table (also printed to stderr as soon as they are
    measured, so that a long run that fails later still shows them)."""
    by_name = {figure["name"].split(".", 2)[2]: figure for figure in figures_}
    print(f"{f['server']} (127.0.0.1, {f['count']:,} todos)", file=out)
    def rows(at):
        label = size_label(at["count"])
        for request, p in at["cpu"].items():
            row(f"CPU per {request} request (ms)", p, by_name[f"cpu_{request}@{label}"], 3, out)
        row("sync with nothing to do (ms)", at["noop"], by_name[f"noop@{label}"], 1, out)
    rows(f)
    row(f"send {f['sent']:,} new todos (s)", f["send"], by_name[f"send@{size_label(f['sent'])}"], 2, out)
    row("  (todo-sync's 4 parallel writes, s)", f["send_helper"], by_name[f"send_helper@{size_label(f['sent'])}"], 2, out)
    c = f["send_cpu"]
    print(f"    send CPU s (p50): todo sync {c['todo']:.2f}, todo-sync write {c['helper']:.2f}, curl {c['curl']:.2f}; "
          f"curl connected {f['send']['connections']:,} times for {f['sent']:,} PUTs; per request curl connected "
          + ", ".join(f"{g['curl_connections']}" for g in f["cpu"].values()) + " times", file=out)
    if "fill_s" in f:
        print(f"    ({f['sent']:,} sent per round; one todo sync of {f['count']:,} new todos, "
              f"{f['fill_s']:.2f} s, filled the collection of the figures above)", file=out)
    large = f["large"]
    print(f"  {large['count']:,} todos (filled by {large['filled_by']} in {large['fill_s']:.1f} s; a fresh database "
          f"received them in one todo sync, {large['receive_s']:.1f} s, CPU {large['receive_cpu_s']:.2f} s)", file=out)
    rows(large)


def show(part, figures_, out):
    print(f"transport: todo-sync and todo sync against the curl tool ({part['curl']}); {part['rounds']} rounds, the "
          f"contenders taking turns going first; {part['count']:,} todos in the collection", file=out)
    print(f"  {'':<37}{'p50':>9}{'p95':>9}{'curl p50':>9}{'curl p95':>9}{'ratio':>9}{'p95':>8}  goal (on p50)", file=out)
    row("start-up to hello (ms)", part["start"], figures_[0], 2, out)
    for kind, f in part["servers"].items():
        show_server(f, [g for g in figures_ if g["name"].startswith(f"transport.{kind}.")], out)
    print("start-up: todo-sync from its start to its answer to {\"op\":\"hello\"} vs `curl --version` from start to exit. "
          "CPU per request: user + system (os.wait4) of todo-sync opened on the collection making 1 + N requests minus "
          "that of one making 1, over N; curl: the same request (method, Depth, body, the same user and password) "
          "1 + N times in one process minus once, over N. probe: PROPFIND Depth 0; changes: the sync-collection "
          "REPORT with the current token (nothing new); fetch: calendar-multiget of one href. Sync with nothing to do: "
          "the whole `todo sync` of a synced database (it starts todo-sync) vs one `curl` sending the same "
          "sync-collection REPORT. Send: the whole `todo sync` of a database of new todos (made by `todo import`) vs the "
          "sequential PUT floor, curl with every PUT (If-None-Match: *) in one process (a config file), each contender "
          "to a fresh collection every round; todo-sync's parallel writes: the helper alone from its start, open then "
          "one write of every object as a create (4 in flight). Radicale closes every connection (HTTP/1.0); Xandikos "
          "keeps it.", file=out)
