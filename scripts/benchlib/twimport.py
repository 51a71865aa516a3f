"""Moving in from taskwarrior (issue 37): a `task export` of 30,000 tasks (--smoke: 300) as a user
of some years has one, generated once with a fixed seed: projects with a hierarchy (Work.ClientA),
tags, priorities, annotations, three user-defined attributes (client, estimate, ticket), due,
wait and scheduled dates, dependencies, weekly and monthly series (a template and its instances,
some done), half the tasks completed and some deleted, as taskwarrior 2.6 writes them.
  import    `todo import --from taskwarrior` of the file into a new file vs. `task import` of it
            into an empty TASKDATA (an rc with confirmation off and the three attributes
            declared), the two in turn each round: p50 wall ms of 5 rounds (quick: 3, smoke: 1).
            Goal: at most 0.5x task.
  reimport  (context) the same file imported again into what each round made: todo finds every
            task by its uuid and changes nothing; task finds each by its uuid too.
"""
import json, os, random, shutil, time

from .figures import figure, size_label, table
from .proc import log, run_timed
from .stats import p50

NAME = "twimport"
SETTINGS = {"full": {"tasks": 30_000, "rounds": 5}, "quick": {"tasks": 30_000, "rounds": 3},
            "smoke": {"tasks": 300, "rounds": 1}}
GOAL = 0.5
SEED = 37
RC = """confirmation=off
recurrence.confirmation=off
verbose=nothing
hooks=off
uda.client.type=string
uda.client.label=Client
uda.estimate.type=numeric
uda.estimate.label=Estimate
uda.ticket.type=string
uda.ticket.label=Ticket
"""
PROJECTS = ["Work", "Work.ClientA", "Work.ClientB", "Work.Internal", "Home", "Home.Garden", "Home.Admin", "Errands",
            "Health", "Learning.Spanish", None, None]
TAGS = ["errands", "phone", "email", "office", "weekend", "someday", "waiting", "review", "urgent", "reading"]
WORDS = ("call send write review fix plan buy book check update draft prepare clean order pay renew ask "
         "report invoice meeting garden car dentist taxes slides budget letter tickets groceries").split()


def stamp(seconds):
    """A taskwarrior time: 20240501T000000Z."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(seconds))


def uuid(rng):
    hexes = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    return f"{hexes[:8]}-{hexes[8:12]}-4{hexes[13:16]}-a{hexes[17:20]}-{hexes[20:]}"


def tasks(count, seed=SEED):
    """`count` tasks as `task export` writes them, one in 25 a series (a template with a few
    instances) and about half completed."""
    rng = random.Random(seed)
    start = 1_546_300_800  # 2019-01-01: five years of tasks
    day = 86_400
    out, pending = [], []
    while len(out) < count:
        entry = start + rng.randrange(5 * 365) * day + rng.randrange(day)
        task = {"uuid": uuid(rng), "description": " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))).capitalize(),
                "entry": stamp(entry), "modified": stamp(entry + rng.randrange(30 * day))}
        project = rng.choice(PROJECTS)
        if project:
            task["project"] = project
        if rng.random() < 0.6:
            task["tags"] = rng.sample(TAGS, rng.randint(1, 3))
        if rng.random() < 0.4:
            task["priority"] = rng.choice("HML")
        if rng.random() < 0.3:
            task["annotations"] = [{"entry": stamp(entry + (i + 1) * 3600 * rng.randint(1, 90)),
                                    "description": " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))}
                                   for i in range(rng.randint(1, 3))]
        if rng.random() < 0.25:
            task["client"] = rng.choice(["ACME", "Globex", "Initech", "Umbrella"])
        if rng.random() < 0.15:
            task["estimate"] = rng.choice([0.5, 1, 2, 3, 5, 8])
        if rng.random() < 0.1:
            task["ticket"] = f"T-{rng.randrange(10_000)}"
        due = None
        if rng.random() < 0.5:
            due = entry + rng.randint(1, 60) * day - entry % day - 9 * 3600  # local midnight in UTC+9
            task["due"] = stamp(due)
            if rng.random() < 0.1:
                task["wait"] = stamp(due - rng.randint(1, 7) * day)
            elif rng.random() < 0.1:
                task["scheduled"] = stamp(due - rng.randint(1, 7) * day)
        if len(out) % 25 == 0 and due is not None and len(out) + 6 <= count:
            # A series: its template and four instances, the first two done.
            recur = rng.choice(["weekly", "monthly", "daily", "biweekly"])
            step = {"weekly": 7, "monthly": 30, "daily": 1, "biweekly": 14}[recur] * day
            template = dict(task, status="recurring", recur=recur, rtype="periodic", mask="++--")
            out.append(template)
            for imask in range(4):
                instance = dict(task, uuid=uuid(rng), status="completed" if imask < 2 else "pending", recur=recur,
                                rtype="periodic", parent=template["uuid"], imask=imask, due=stamp(due + imask * step))
                instance.pop("wait", None)
                instance.pop("scheduled", None)
                if imask < 2:
                    instance["end"] = stamp(due + imask * step + 3600)
                out.append(instance)
            continue
        roll = rng.random()
        if roll < 0.5:
            task["status"] = "completed"
            task["end"] = stamp(entry + rng.randint(1, 90) * day)
        elif roll < 0.53:
            task["status"] = "deleted"
            task["end"] = stamp(entry + rng.randint(1, 90) * day)
        else:
            task["status"] = "pending"
            if pending and rng.random() < 0.05:
                task["depends"] = [rng.choice(pending)]
            pending.append(task["uuid"])
        out.append(task)
    return out[:count]


def measure(ctx):
    s = SETTINGS[ctx.mode]
    _, todo = ctx.binaries.core()
    if not shutil.which("task"):
        raise RuntimeError("taskwarrior's task is not installed (scripts/setup-tests installs it)")
    work = os.path.join(ctx.work, "twimport")
    os.makedirs(work, exist_ok=True)
    log(f"bench: twimport: generating a {s['tasks']:,}-task taskwarrior export...")
    export = os.path.join(work, "export.json")
    with open(export, "w") as f:
        json.dump(tasks(s["tasks"]), f)
    rc = os.path.join(work, "taskrc")
    with open(rc, "w") as f:
        f.write(RC)
    env = dict(os.environ, TZ="Asia/Tokyo")
    ours, theirs, ours_again, theirs_again = [], [], [], []
    summary = ""
    for round in range(s["rounds"]):
        log(f"bench: twimport: round {round + 1} of {s['rounds']}: todo import and task import of the same file...")
        data = os.path.join(work, f"task{round}")
        os.makedirs(data)
        task_env = dict(env, HOME=work, TASKRC=rc, TASKDATA=data)
        database = os.path.join(work, f"todo{round}.sqlite")
        todo_import = [todo, "--db", database, "import", "--from", "taskwarrior", export]
        task_import = ["task", "rc.verbose=nothing", "import", export]
        # In turn, the first one alternating, so that drift hits both alike.
        for first in ([todo_import, task_import] if round % 2 == 0 else [task_import, todo_import]):
            seconds, _, out = run_timed(first, env=env if first is todo_import else task_env)
            (ours if first is todo_import else theirs).append(seconds * 1000)
            if first is todo_import:
                summary = out.strip()
        ours_again.append(run_timed(todo_import, env=env)[0] * 1000)
        theirs_again.append(run_timed(task_import, env=task_env)[0] * 1000)
        shutil.rmtree(data, ignore_errors=True)
        os.remove(database)
    label = size_label(s["tasks"])
    stat = f"p50 of {s['rounds']}"
    figures = [
        figure(f"twimport.import@{label}", p50(ours), "ms", stat=stat, baseline=p50(theirs), baseline_name="task import",
               goal=GOAL),
        figure(f"twimport.reimport@{label}", p50(ours_again), "ms", stat=stat, baseline=p50(theirs_again),
               baseline_name="task import", context=True)]
    return {"tasks": s["tasks"], "rounds": s["rounds"], "summary": summary}, figures


def show(detail, figures, out):
    print(f"twimport: a {detail['tasks']:,}-task taskwarrior export (projects, tags, priorities, annotations, three "
          f"attributes, series, completed and deleted tasks) into an empty file (todo import --from taskwarrior) and "
          f"an empty TASKDATA (task import), in turn; then again into each ({detail['rounds']} rounds)", file=out)
    table(figures, out)
    print(f"todo's summary: {detail['summary']}", file=out)
