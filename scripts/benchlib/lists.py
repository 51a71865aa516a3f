"""Several lists on one account (issue 35): `todo sync` of a database whose five lists each sync
with a collection of their own on Radicale (servers.py), when nothing changed.
  noop5           whole `todo sync --json` with nothing to do, p50 wall ms of 20 runs (--quick 10),
                  vs. the same number of `curl` processes run one after another, each sending the
                  sync-collection REPORT a no-op sync sends to one collection (with that
                  collection's current sync token); alternating. Goal: at most 1.2x.
  noop5_requests  the requests one such sync makes (Radicale's log): one, the listing of the
                  account's calendar home, which shows every collection unchanged (at most one per
                  list was issue 35's bound; five before the home was listed).
Each list holds 100 user-like todos (userdata.records: priorities, tags, notes, repeats, a third
subtasks; made by `todo import --list`, sent by a first sync). --smoke: 2 lists of
5 todos, 2 runs.
"""
import json, os, re
from types import SimpleNamespace

from .figures import figure, table as print_table
from .proc import environment, log, run, wall_ms
from . import userdata
from .servers import PASSWORD, USER, Radicale, noop_sync, stop_all, sync_json, todo_env
from .stats import p50

NAME = "lists"
SETTINGS = {"full": SimpleNamespace(lists=5, todos=100, runs=20),
            "quick": SimpleNamespace(lists=5, todos=100, runs=10),
            "smoke": SimpleNamespace(lists=2, todos=5, runs=2)}
GOAL = 1.2
REPORT = ('<?xml version="1.0" encoding="utf-8"?>\n<D:sync-collection xmlns:D="DAV:"><D:sync-token>{token}</D:sync-token>'
          '<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')


def measure(ctx):
    s = SETTINGS[ctx.mode]
    todo, work = ctx.binaries.sync_todo(), ctx.work
    env = todo_env(work)
    try:
        server = Radicale(work, "lists")
        db = os.path.join(work, "lists.sqlite")
        urls = []
        for index in range(1, s.lists + 1):
            name = f"List {index}"
            path = server.mkcol(f"/{USER}/list{index}/")
            url = f"http://127.0.0.1:{server.port}{path}"
            urls.append(url)
            run([todo, "--db", db, "lists", "new", name], env=env)
            source = os.path.join(work, f"list{index}.json")
            with open(source, "w") as f:
                json.dump(userdata.records(todo, work, s.todos), f)
            run([todo, "--db", db, "import", "--list", name, source], env=env, timeout=120)
            run([todo, "--db", db, "sync", "setup", url, "--user", USER, "--to", name], env=env, timeout=60)
        log(f"bench: lists: a first sync of {s.lists} lists of {s.todos} todos...")
        first = sync_json(run([todo, "--db", db, "sync", "--json"], env=env, timeout=300))
        if first["sent"] != s.lists * s.todos:
            raise RuntimeError(f"the first sync sent {first['sent']}, not {s.lists * s.todos}")
        sync_json(run([todo, "--db", db, "sync", "--json"], env=env, timeout=120))  # tokens past our own writes

        # The baseline: each collection's current token, then one curl per collection.
        tokens = [current_token(server, url) for url in urls]
        curls = [["curl", "-s", "-o", "/dev/null", "-u", f"{USER}:{PASSWORD}", "-X", "REPORT", "-H", "Depth: 1", "-H",
                  "Content-Type: application/xml; charset=utf-8", "--data", REPORT.format(token=token), url]
                 for url, token in zip(urls, tokens)]

        log(f"bench: lists: todo sync with nothing to do vs. {s.lists} curl REPORTs...")
        _, methods, _ = noop_sync(todo, db, env, server)
        ours, theirs = [], []
        with environment(**env):  # wall_ms runs in this environment: the password, HOME
            for _ in range(s.runs):
                ours.append(wall_ms([todo, "--db", db, "sync", "--json"]))
                theirs.append(sum(wall_ms(curl) for curl in curls))
        ours, theirs = p50(ours), p50(theirs)
        table = {"lists": s.lists, "todos": s.todos, "runs": s.runs, "requests": sum(methods.values()),
                 "methods": methods}
        figures = [
            figure("lists.noop5", ours, "ms", stat=f"p50 of {s.runs}", baseline=theirs,
                   baseline_name=f"{s.lists} curl REPORTs", goal=GOAL),
            figure("lists.noop5_requests", table["requests"], "requests", stat="once", goal=1, goal_of="value")]
    finally:
        stop_all()
    return table, figures


def current_token(server, url):
    """The collection's sync token now, from an empty-token sync-collection REPORT."""
    out = run(["curl", "-s", "-u", f"{USER}:{PASSWORD}", "-X", "REPORT", "-H", "Depth: 1", "-H",
               "Content-Type: application/xml; charset=utf-8", "--data", REPORT.format(token=""), url])
    match = re.search(r"<(?:\w+:)?sync-token>([^<]+)</(?:\w+:)?sync-token>", out)
    if not match:
        raise RuntimeError(f"no sync token from {url}: {out[:300]}")
    return match.group(1)


def show(table, figures_, out):
    print(f"lists: todo sync with nothing to do, {table['lists']} lists of {table['todos']} todos on Radicale, "
          f"vs. one curl REPORT per list; requests {table['requests']} ({table['methods']})", file=out)
    print_table(figures_, out)
