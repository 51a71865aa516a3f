"""`todo next` beside taskwarrior's `task next` (issue 37): 30,000 tasks as a five-year taskwarrior
user has them, generated once (seeded, so every run has the same ones): a tenth pending (some
started, waiting, scheduled or depending on another), the rest completed or deleted; projects
with sub-projects, tags, priorities, due dates around today, annotations. The same export is
imported into a temporary TASKDATA with `task import` and into a todo file with `todo import
--from taskwarrior` (untimed).
  next@30k    whole `todo next` (its 10 rows to a pipe) vs. whole `task next` (rc: confirmation=off,
              verbose=nothing, defaultwidth=120, defaultheight=24: its page to a pipe), p50 wall ms
              of 21 runs each (--quick 11), alternating, after one untimed run of each (task's
              first run after an import collects its garbage). Goal: at most 0.2x task.
  (agree@30k) context: how many of todo's ten most urgent are among taskwarrior's ten most urgent
              unblocked pending tasks (`task export`, by its urgency). taskwarrior counts more than
              todo knows (projects, annotations, scheduled dates), so they differ at the margin;
              and its default +next coefficient (15) puts the tasks tagged next first, which todo's
              rule has no term for.
  (agree_no_next@30k) context: the same against taskwarrior's urgency less that +next term.
--smoke: 300 tasks, 3 runs.
"""
import json, os, random, shutil, subprocess, time
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from .figures import figure, size_label, table
from .proc import environment, log, run, wall_ms
from .stats import p50

NAME = "next"
SETTINGS = {"full": SimpleNamespace(tasks=30_000, runs=21),
            "quick": SimpleNamespace(tasks=30_000, runs=11),
            "smoke": SimpleNamespace(tasks=300, runs=3)}
GOAL = 0.2
SEED = 37
PROJECTS = ["Home", "Home.Garden", "Home.Repairs", "Work", "Work.ClientA", "Work.ClientB", "Work.Admin",
            "Errands", "Health", "Finance", "Learning.Swift", "Learning.Piano", "Travel"]
TAGS = ["errands", "phone", "email", "computer", "someday", "next", "waiting", "urgent", "reading", "family"]
WORDS = ["call", "buy", "fix", "write", "review", "book", "pay", "clean", "plan", "send", "read", "order",
         "the", "report", "invoice", "dentist", "car", "garden", "plumber", "tickets", "notes", "backup"]
RC = "confirmation=off\nverbose=nothing\ndefaultwidth=120\ndefaultheight=24\n"


def stamp(moment):
    return moment.strftime("%Y%m%dT%H%M%SZ")


def tasks(count, now):
    """The export: a list of taskwarrior task objects, as `task export` writes them. Due dates are
    local midnights, as `task add ... due:2024-05-01` stores them."""
    rng = random.Random(SEED)
    midnight = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)

    def day(days):
        return stamp((midnight + timedelta(days=days)).astimezone(timezone.utc))

    pending = []
    out = []
    for index in range(count):
        entry = now - timedelta(days=rng.uniform(0, 5 * 365), seconds=rng.randint(0, 86_399))
        task = {"uuid": f"{index:08x}-0037-4000-8000-{rng.getrandbits(48):012x}",
                "description": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))) + f" {index}",
                "entry": stamp(entry), "modified": stamp(entry)}
        if rng.random() < 0.8:
            task["project"] = rng.choice(PROJECTS)
        tags = rng.sample(TAGS, k=rng.choice([0, 0, 1, 1, 1, 2, 3]))
        if tags:
            task["tags"] = tags
        if rng.random() < 0.5:
            task["priority"] = rng.choice("HMMLL")
        if rng.random() < 0.12:
            task["annotations"] = [{"entry": stamp(entry + timedelta(hours=h + 1)),
                                    "description": "note " + " ".join(rng.choice(WORDS) for _ in range(5))}
                                   for h in range(rng.randint(1, 3))]
        if index % 10 == 0:
            task["status"] = "pending"
            if rng.random() < 0.45:
                task["due"] = day(rng.randint(-30, 60))
            if rng.random() < 0.03:
                task["start"] = stamp(now - timedelta(days=rng.randint(0, 5)))
            if rng.random() < 0.02:
                task["wait"] = day(rng.randint(1, 30))
            if rng.random() < 0.02:
                task["scheduled"] = day(rng.randint(-5, 20))
            if pending and rng.random() < 0.03:
                task["depends"] = [rng.choice(pending)["uuid"]]
            pending.append(task)
        else:
            task["status"] = "deleted" if rng.random() < 0.05 else "completed"
            end = min(now, entry + timedelta(days=rng.uniform(0, 60)))
            task["end"] = stamp(end)
            if rng.random() < 0.3:
                task["due"] = stamp((end + timedelta(days=rng.randint(-10, 10))).replace(hour=0, minute=0, second=0))
        out.append(task)
    return out


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    if shutil.which("task") is None:
        raise RuntimeError("taskwarrior (task) is not installed: scripts/setup-tests installs it")
    label = size_label(s.tasks)
    folder = os.path.join(ctx.work, "next")
    data = os.path.join(folder, "taskdata")
    os.makedirs(data)
    rc = os.path.join(folder, "taskrc")
    with open(rc, "w") as f:
        f.write(RC + f"data.location={data}\n")
    export = os.path.join(folder, "export.json")
    with open(export, "w") as f:
        json.dump(tasks(s.tasks, datetime.now(timezone.utc).replace(microsecond=0)), f)
    env = dict(os.environ, TASKRC=rc, TASKDATA=data)
    log(f"bench: next: importing {s.tasks:,} tasks into taskwarrior and into todo...")
    began = time.monotonic()
    subprocess.run(["task", "import", export], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=3600)
    log(f"bench: next: task import: {time.monotonic() - began:.1f} s")
    db = os.path.join(folder, "todo.sqlite")
    run([todo, "--db", db, "import", "--from", "taskwarrior", export], timeout=600)

    ours_command, theirs_command = [todo, "--db", db, "next"], ["task", "next"]
    with environment(TASKRC=rc, TASKDATA=data):  # wall_ms runs in this environment
        for command in (ours_command, theirs_command):
            wall_ms(command)  # untimed: task's garbage collection after the import, caches
        log(f"bench: next: todo next vs. task next over {s.tasks:,} tasks, {s.runs} runs each...")
        ours, theirs = [], []
        for _ in range(s.runs):
            ours.append(wall_ms(ours_command))
            theirs.append(wall_ms(theirs_command))
    agree, without_next = agreement(todo, db, env)
    pending = sum(1 for line in open(os.path.join(data, "pending.data")) if line.strip())
    detail = {"tasks": s.tasks, "runs": s.runs, "pending": pending, "agree": agree, "without_next": without_next}
    figures = [
        figure(f"next.next@{label}", p50(ours), "ms", stat=f"p50 of {s.runs}", baseline=p50(theirs),
               baseline_name="task next", goal=GOAL),
        figure(f"next.agree@{label}", agree, "of 10", stat="once", context=True),
        figure(f"next.agree_no_next@{label}", without_next, "of 10", stat="once", context=True)]
    return detail, figures


def agreement(todo, db, env):
    """How many of `todo next`'s ten are among taskwarrior's ten most urgent unblocked pending
    tasks: by taskwarrior's urgency, and by it less its +next term."""
    ours = {t["name"] for t in json.loads(run([todo, "--db", db, "next", "--json", "--limit", "10"]))}
    exported = json.loads(run(["task", "rc.json.array=on", "status:pending", "-WAITING", "-BLOCKED", "export"],
                              env=env))

    def top(urgency):
        return {t["description"] for t in sorted(exported, key=lambda t: -urgency(t))[:10]}

    theirs = top(lambda t: t.get("urgency", 0))
    without_next = top(lambda t: t.get("urgency", 0) - (15 if "next" in t.get("tags", []) else 0))
    return len(ours & theirs), len(ours & without_next)


def show(detail, figures, out):
    print(f"next: todo next vs. task next over {detail['tasks']:,} taskwarrior tasks ({detail['pending']:,} pending "
          f"after task's garbage collection), {detail['runs']} runs each; the ten most urgent agree on "
          f"{detail['agree']} of 10 ({detail['without_next']} without taskwarrior's +next term)", file=out)
    table(figures, out)
