"""The bench's data: todos as users' todos are (issue 38), made at any size by one INSERT ... SELECT in
the sqlite3 shell over todo's own schema (`todo --db PATH list` makes it, every migration), so the
change feed's and the lists' triggers run as for todos added one by one. Deterministic: the same
size gives the same file (no random(): each row's fields come from a hash of its id); 3 s at 100,000
todos, 40 s at 1,000,000 on the 2 cores the bench shares with builds.

What a file holds (each share of all todos; `make`'s options leave parts out):
  names       3 to 12 words (7 on average) from a vocabulary of 256, no two rows alike by design
  priority    about half: 1 (high) 15 %, 3 5 %, 5 (medium) 20 %, 9 (low) 10 %
  tags        85 % carry one to three (45 % one, 30 % two, 10 % three) of a vocabulary of 300,
              a few used by many todos and most by few; an eighth of the vocabulary has a space
              (stored as todo stores it: `+"home improvement"`), a fifth are contexts (`@phone`)
  note        a fifth: one to ten lines (from 997 notes)
  created     spread over five years (2021 to 2026), growing with the id
  done        about 30 % (a third of those not repeating), with a completed time and percent 100
  deadline    about 60 % (every repeating todo), from 2025-09 to 2027-11; 8 % of those with a due
              time, 3 % with a start date a few days before (start dates after today hide a todo
              from `todo list`, as for users)
  repeats     a tenth (repeat_rule as `todo add --every/--after` writes it: daily, every 3 days
              from done, weekly, weekdays, every other week, monthly, yearly)
  project     a quarter, of 12 (Work.ClientA and so on)
  lists       8 (lists=True): Todos (the default), Work, Home, Errands, Groceries, Reading, Side
              project, Garden; 40 % in Todos, the rest spread unevenly. Rows go to lists in runs of
              ten (a family: a parent and its subtasks share a list).
  subtasks    about a third (subtasks=True): in each run of ten ids one of four shapes, parents
              earlier in the run; up to three levels (a todo, its subtask, the subtask's subtask)
Not made: dependencies (`--waits-for`) and statuses other than done.

`plain(bench, path, size)` keeps the plain todos of the earlier figures (TodoBench insert: a name
"Todo number N", a deadline on two thirds, a fifth done), for the figures that stay beside.
`tree_sql` and `outline_sql` are the sqlite3 shell's side of `todo list` and `todo list --outline
[--by ...]` on such a file: the same rows in the same order.
"""
import json, os, shutil

from .proc import run

ANCHOR = "2026-01-01"       # the day the data is made as of: created times end there, deadlines centre on it
ANCHOR_EPOCH = 1_767_225_600
SPAN_S = 5 * 365 * 86_400   # five years of todos before it
PRIME = 2_147_483_647       # 2^31 - 1: the hash's modulus (squares of its residues fit in 63 bits)

WORDS = """
call buy fix write review book pay clean plan send read order check update draft prepare renew ask email
print sort file move paint wash cook bake water mow plant repair replace install cancel return collect
pick drop visit meet finish start test deploy refactor document backup sign schedule confirm research
compare choose organise tidy pack unpack charge sell donate recycle measure the a an for with about
from to of and before after on at by in new old next last weekly monthly quarterly annual urgent small
big quick long report invoice meeting garden car dentist doctor taxes slides budget letter tickets
groceries milk bread eggs coffee tea rice pasta apples cheese butter kitchen bathroom bedroom garage
shed fence gutter roof window door lamp shelf desk chair sofa laptop phone printer router server
website blog newsletter podcast video photos album birthday gift party wedding holiday trip flight
hotel train passport visa insurance bank mortgage rent bills receipts contract lease warranty license
permit form application interview resume portfolio course exam homework lecture thesis paper article
book chapter notes outline summary proposal plan roadmap sprint ticket bug feature release patch
branch review demo workshop talk conference client supplier team manager mom dad sister brother
grandma neighbour friend cat dog bike boots jacket shoes glasses keys wallet bag tent map guide
recipe dinner lunch breakfast snacks vitamins medicine gym run swim yoga stretch walk hike
tomorrow today soon maybe again quickly properly together early late spare extra second first final
shared private public online offline local remote upstairs downstairs outside inside everything
""".split()

TAG_WORDS = """
work home errands phone email computer town office garden kitchen family health finance shopping
reading writing music travel car house kids school admin taxes bills insurance someday waiting next
urgent later weekend evening morning quick deep meeting calls online offline study project clients
team boss review ideas fitness cooking cleaning repairs laundry pets dog cat groceries pharmacy
bank post library church sports hobby photos video blog books films games friends party gifts
birthdays holidays planning budget invoices contracts legal medical dentist doctor school-run
commute train flight hotel camping hiking cycling running yoga diet recipes baking wine coffee tea
""".split()

SPACED = ["home improvement", "waiting for", "next actions", "read later", "side project", "deep work",
          "low energy", "high energy", "on the way", "at home", "at work", "big rocks", "quick wins",
          "long term", "this week", "follow up", "to buy", "to read", "to watch", "to call", "errand run",
          "car trip", "Project Alpha", "Project Beta", "Home Office", "Q3 goals", "year end", "tax return",
          "school stuff", "kid stuff", "dog walk", "garden shed", "new house", "old house", "weekly review",
          "monthly review", "annual review", "team lead"]
CONTEXTS = {"home", "phone", "email", "computer", "town", "office", "garden", "kitchen", "online",
            "offline", "calls", "errands", "car", "bank", "post", "library", "pharmacy", "commute",
            "train", "at home", "at work", "on the way", "car trip", "low energy", "high energy"}

LIST_NAMES = ["Todos", "Work", "Home", "Errands", "Groceries", "Reading", "Side project", "Garden"]
# 40 % of the runs of ten in the default list, the rest unevenly: (list id, share of 20).
LIST_SHARES = [(1, 8), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1), (7, 1), (8, 2)]
PROJECTS = ["Work", "Work.ClientA", "Work.ClientB", "Work.Admin", "Home", "Home.Garden", "Home.Repairs", "Errands",
            "Health", "Finance", "Learning.Spanish", "Travel"]
REPEATS = [("FREQ=DAILY", "due"), ("FREQ=DAILY;INTERVAL=3", "done"), ("FREQ=WEEKLY", "due"),
           ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "due"), ("FREQ=WEEKLY;INTERVAL=2", "due"), ("FREQ=MONTHLY", "due"),
           ("FREQ=YEARLY", "due")]
# The four shapes of a run of ten ids (positions 0-9): the position each is a subtask of, None at
# the top. 0, 5, 5 and 3 subtasks: 32.5 % on average; the second and third go three levels deep.
FAMILIES = [
    [None] * 10,
    [None, 0, 0, None, 3, 3, None, None, 7, None],
    [None, 0, 1, 1, None, None, 5, 6, None, None],
    [None, None, 1, None, None, None, 5, None, None, 8],
]
WORDS = list(dict.fromkeys(WORDS))[:256]
WORD_WIDTH, TAG_WIDTH, NOTES = 13, 32, 997


def tag_vocabulary():
    """300 tags as the tags column writes them: `+word`, `@context`, `+"two words"`."""
    words = list(dict.fromkeys(TAG_WORDS))
    hyphened = [f"{a}-{b}" for a, b in zip(words[::3], words[1::3]) if len(a) + len(b) < 24]
    names = (words + SPACED + hyphened + [f"{w}-{n}" for n in range(2, 40) for w in words])[:300]
    out = []
    for name in names:
        sigil = "@" if name in CONTEXTS else "+"
        out.append(f'{sigil}"{name}"' if " " in name else f"{sigil}{name}")
    assert len(out) == 300 and len(set(out)) == 300 and all(len(t) <= TAG_WIDTH for t in out)
    return out


def padded_blob(items, width):
    """The items, each padded with spaces to `width` bytes, as an SQL blob literal: substr on a
    blob is one byte offset (on text, a walk from the start)."""
    data = b"".join(item.encode().ljust(width) for item in items)
    return "X'" + data.hex() + "'"


def notes():
    """NOTES notes of one to ten lines of four to nine words each (a tenth of the lines a to-do item)."""
    out = []
    for k in range(NOTES):
        lines = []
        for line in range(1 + (k * 7 + k // 10) % 10 if k % 3 else 1 + k % 3):
            count = 4 + (k * 31 + line * 17) % 6
            words = [WORDS[(k * 131 + line * 71 + w * 29) % len(WORDS)] for w in range(count)]
            text = " ".join(words).capitalize() + "."
            lines.append(("- [ ] " if (k + line) % 10 == 0 else "") + text)
        out.append("\n".join(lines))
    return out


def sql_text(text):
    return "'" + text.replace("'", "''") + "'"


def fill_sql(size, subtasks=True, lists=True, projects=True, repeats=True):
    """The shell's script that fills a file made by `todo --db PATH list` with `size` todos."""
    assert len(WORDS) == 256
    words = padded_blob(WORDS, WORD_WIDTH)
    tags = padded_blob(tag_vocabulary(), TAG_WIDTH)

    def word(expression):
        return f"rtrim(CAST(substr({words}, 1 + {WORD_WIDTH} * ({expression}), {WORD_WIDTH}) AS TEXT))"

    def tag(expression):
        return f"rtrim(CAST(substr({tags}, 1 + {TAG_WIDTH} * ({expression}), {TAG_WIDTH}) AS TEXT))"

    # Word k of a name: 8 bits of one of four hashes (s1..s4, three words each).
    name_words = [word(f"(s{1 + k // 3} >> {8 * (k % 3)}) % 256") for k in range(12)]
    first = name_words[0]
    name = f"upper(substr({first}, 1, 1)) || substr({first}, 2) || ' ' || {name_words[1]} || ' ' || {name_words[2]}"
    name += "".join(f" || CASE WHEN nwords > {k} THEN ' ' || {name_words[k]} ELSE '' END" for k in range(3, 12))
    list_case = "CASE"
    bound = 0
    for list_id, share in LIST_SHARES:
        bound += share
        list_case += f" WHEN fam % 20 < {bound} THEN {list_id}"
    list_case += " END"
    parent_case = "CASE fam / 20 % 4"
    for shape, parents in enumerate(FAMILIES):
        cases = " ".join(f"WHEN {pos} THEN i - {pos - parent}" for pos, parent in enumerate(parents) if parent is not None)
        if cases:
            parent_case += f" WHEN {shape} THEN CASE (i - 1) % 10 {cases} END"
    parent_case += " END"
    repeat_case = "CASE (e / 10) % 7 " + " ".join(f"WHEN {k} THEN '{rule}'" for k, (rule, _) in enumerate(REPEATS)) + " END"
    repeat_from = "CASE (e / 10) % 7 " + " ".join(f"WHEN {k} THEN '{f}'" for k, (_, f) in enumerate(REPEATS)) + " END"
    project_case = "CASE (f / 100) % 12 " + " ".join(f"WHEN {k} THEN '{p}'" for k, p in enumerate(PROJECTS)) + " END"
    notes_values = ", ".join(f"({k}, {sql_text(note)})" for k, note in enumerate(notes()))
    # Tag indices: the first skewed (the product of two uniform draws over 300, so that a few tags
    # are on many todos), the second and third further on, never the same as one before.
    t1 = "((g / 20) % 300) * ((g / 6000) % 300) / 300"
    t2 = f"({t1} + 1 + h % 100) % 300"
    t3 = f"({t2} + 1 + (h / 100) % 100) % 300"
    # Each of the row's hashes: its own line through the id (the family's: through the run of ten
    # ids), squared twice modulo PRIME. Independent of each other, so that no expression grows
    # with the others when the shell inlines these steps.
    seeds = {"s1": "i", "s2": "i", "s3": "i", "s4": "i", "c": "i", "d": "i", "e": "i", "f": "i", "g": "i", "h": "i",
             "fam": "((i - 1) / 10)"}
    linear = ", ".join(f"({of} * {48271 + 7919 * k} + {11 + 104729 * k}) % {PRIME} AS {name}"
                       for k, (name, of) in enumerate(seeds.items()))
    square_u = ", ".join(f"({name} * {name} + 7) % {PRIME} AS {name}" for name in seeds)
    square_v = square_u
    return f"""
CREATE TEMP TABLE bench_notes (k INTEGER PRIMARY KEY, text TEXT NOT NULL);
INSERT INTO bench_notes VALUES {notes_values};
{"" if not lists else LISTS_SQL}
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {size}),
u AS (SELECT i, {linear} FROM n),
v AS (SELECT i, {square_u} FROM u),
w AS MATERIALIZED (SELECT i, {square_v} FROM v),
r AS (SELECT *,
             3 + s4 % 4 + (s4 >> 2) % 4 + (s4 >> 4) % 4 AS nwords,
             {"e % 10 = 0" if repeats else "0"} AS repeating,
             {ANCHOR_EPOCH - SPAN_S} + i * {SPAN_S} / {size} - c % 3600 AS created_s
      FROM w),
t AS (SELECT *, NOT repeating AND d % 3 = 0 AS is_done,
             CASE WHEN repeating OR c / 3600 % 10 < 6
                  THEN date('{ANCHOR}', ((c / 36000) % 800 - 120) || ' days') END AS due
      FROM r)
INSERT INTO todos (id, name, deadline, done, priority, tags, note, created, completed, percent, repeat_rule, repeat_from,
                   due_time, start_date, list_id, parent_id, project)
SELECT i,
       {name},
       due,
       is_done,
       CASE f % 20 WHEN 0 THEN 1 WHEN 1 THEN 1 WHEN 2 THEN 1 WHEN 3 THEN 3 WHEN 4 THEN 5 WHEN 5 THEN 5
                   WHEN 6 THEN 5 WHEN 7 THEN 5 WHEN 8 THEN 9 WHEN 9 THEN 9 ELSE 0 END,
       CASE WHEN g % 20 < 3 THEN ''
            WHEN g % 20 < 12 THEN {tag(t1)}
            WHEN g % 20 < 18 THEN {tag(t1)} || ' ' || {tag(t2)}
            ELSE {tag(t1)} || ' ' || {tag(t2)} || ' ' || {tag(t3)} END,
       CASE WHEN (h / 10000) % 5 = 0 THEN (SELECT text FROM bench_notes WHERE k = (h / 50000) % {NOTES}) END,
       strftime('%Y-%m-%dT%H:%M:%SZ', created_s, 'unixepoch'),
       CASE WHEN is_done THEN strftime('%Y-%m-%dT%H:%M:%SZ', min(created_s + (d / 3) % (90 * 86400), {ANCHOR_EPOCH}),
                                       'unixepoch') END,
       CASE WHEN is_done THEN 100 END,
       CASE WHEN repeating THEN {repeat_case} END,
       CASE WHEN repeating THEN {repeat_from} ELSE 'due' END,
       CASE WHEN due IS NOT NULL AND (c / 97) % 100 < 8
            THEN printf('%02d:%02d', 7 + (c / 9700) % 14, 15 * ((c / 135800) % 4)) END,
       CASE WHEN due IS NOT NULL AND (c / 13) % 100 < 3 THEN date(due, '-' || (1 + (c / 1300) % 14) || ' days') END,
       {list_case if lists else 1},
       {parent_case if subtasks else "NULL"},
       {f"CASE WHEN (f / 20) % 4 = 0 THEN {project_case} END" if projects else "NULL"}
FROM t;
DROP TABLE bench_notes;
"""


# The lists beside the default one (id 1, "Todos", made by the schema), in display order.
LISTS_SQL = "INSERT INTO lists (id, name, position) VALUES " + ", ".join(
    f"({k + 1}, {sql_text(name)}, {k + 1})" for k, name in enumerate(LIST_NAMES) if k) + ";"


def make(todo, path, size, subtasks=True, lists=True, projects=True, repeats=True):
    """A new file at `path` with `size` todos as users' are (this module's docstring); the options
    leave out subtasks (parent_id), the seven other lists, projects, repeats."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    run([todo, "--no-config", "--db", path, "list"])  # todo's own schema, every migration
    script = path + ".fill.sql"
    with open(script, "w") as f:
        f.write(fill_sql(size, subtasks=subtasks, lists=lists, projects=projects, repeats=repeats))
    try:
        run(["sqlite3", path, f".read {script}"], timeout=1800)
    finally:
        os.remove(script)
    return path


def copy(ctx, todo, path, size, **shape):
    """A fresh copy at `path` of the file `make` gives for these arguments, made once per run
    (kept in the run's folder, so parts and sizes that need the same data make it once)."""
    key = f"{size}-" + "-".join(f"{k}{int(v)}" for k, v in sorted(shape.items()))
    cache = os.path.join(ctx.work, "userdata-cache")
    os.makedirs(cache, exist_ok=True)
    source = os.path.join(cache, f"{key}.sqlite")
    if not os.path.exists(source):
        make(todo, source + ".part", size, **shape)
        run(["sqlite3", source + ".part", "PRAGMA wal_checkpoint(TRUNCATE)"])
        os.replace(source + ".part", source)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    shutil.copyfile(source, path)
    return path


def plain(bench, path, size):
    """The plain todos of the earlier figures: TodoBench insert (one transaction through the
    repository): "Todo number N", a deadline on two thirds of them, a fifth done."""
    run([bench, "insert", path, str(size)], timeout=1800)
    return path


def records(todo, work, size, subtasks=True):
    """`size` todos as `todo import` reads them (JSON objects), as `make` makes them in one list:
    `todo export` of such a file, without the list (so they go where the import puts them), each
    subtask naming its parent by id (`todo import` links them)."""
    path = os.path.join(work, f"userdata-records-{size}.sqlite")
    make(todo, path, size, subtasks=subtasks, lists=False)
    exported = json.loads(run([todo, "--no-config", "--db", path, "export"], timeout=600))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    for record in exported:
        record.pop("list", None)
    return exported


# The sqlite3 shell's side of `todo list` and `todo list --outline [--by ...]` on any file: the
# columns `todo list` reads, the todos it shows, in the order it prints them.

# The todos `todo list` shows: not those not started yet (TodoFetchRequest.startedBy, today).
SHOWN = "(done = 1 OR start_date IS NULL OR start_date <= date('now', 'localtime'))"
# A todo's place among its siblings: the list's order (deadline, undated last, then id), as text
# that sorts the same way, so that a path of them sorts a tree depth first.
SORT_KEY = "(CASE WHEN deadline IS NULL THEN '~' ELSE deadline END || printf('%010d', id))"
# The outline's groups (TodoGroupings.swift), each a key that sorts in display order; NULL last.
GROUP_KEYS = {
    "done": "done",
    "priority": "CASE WHEN priority BETWEEN 1 AND 4 THEN 0 WHEN priority = 5 THEN 1 WHEN priority >= 6 THEN 2 ELSE 3 END",
    # Weeks run Monday to Sunday: 'weekday 0' is the coming Sunday, today on a Sunday.
    "due": "CASE WHEN deadline IS NULL THEN 6 "
           "WHEN deadline < date('now', 'localtime') THEN CASE WHEN done THEN 5 ELSE 0 END "
           "WHEN deadline = date('now', 'localtime') THEN 1 "
           "WHEN deadline = date('now', 'localtime', '+1 day') THEN 2 "
           "WHEN deadline <= date('now', 'localtime', 'weekday 0') THEN 3 ELSE 4 END",
}
# Each todo shown under each of its tags (a todo without one under NULL, "No tag"): the tags
# column split (`+a +"b c" @d`: a sigil, then a word or a quoted phrase, one space apart), each
# tag by its folded word, as the group's key (ASCII: lower()).
TAG_MEMBERS = f"""
split(id, word, rest) AS (
    SELECT id, NULL, tags || ' ' FROM todos WHERE {SHOWN} AND tags <> ''
    UNION ALL
    SELECT id,
           CASE WHEN substr(rest, 2, 1) = '"' THEN substr(rest, 3, instr(substr(rest, 3), '"') - 1)
                ELSE substr(rest, 2, instr(rest, ' ') - 2) END,
           CASE WHEN substr(rest, 2, 1) = '"' THEN substr(rest, instr(substr(rest, 3), '"') + 4)
                ELSE substr(rest, instr(rest, ' ') + 1) END
    FROM split WHERE rest <> ''),
members(id, g) AS MATERIALIZED (
    SELECT DISTINCT id, lower(word) FROM split WHERE word IS NOT NULL
    UNION ALL SELECT id, NULL FROM todos WHERE {SHOWN} AND tags = ''),"""


def columns(path):
    """The columns `todo list` reads, in their order: every column of `todos` (TodoColumns.list
    is `id` and the field table, which follows them), read from the file, so that a new field's
    column is read by both sides of a figure."""
    out = run(["sqlite3", path, "SELECT name FROM pragma_table_info('todos') ORDER BY cid"])
    return [line for line in out.splitlines() if line]


def has_subtasks(path):
    return run(["sqlite3", path, "SELECT EXISTS (SELECT 1 FROM todos WHERE parent_id IS NOT NULL)"]).strip() == "1"


def tree_sql(path, by=None):
    """The shell's SELECT of what `todo list` (by=None) or `todo list --outline --by BY` (done,
    tag, priority, due) prints, on the file at `path`: the columns todo reads (with the group's
    key first in an outline), the todos it shows (not those not started yet), each group in
    display order, its todos as a tree depth first (a recursive CTE: each todo's path is its
    ancestors' sort keys and its own, and the rows are ordered by group, then path). A todo is
    under its parent when the parent is shown, in the same group and in the same list (the tree
    rule, TodoOutline); siblings in the list's order (deadline, undated last, then id)."""
    selected = ", ".join(f"todos.{c}" for c in columns(path))
    if by is None:
        members = f"members(id, g) AS (SELECT id, 0 FROM todos WHERE {SHOWN}),"
    elif by == "tag":
        members = TAG_MEMBERS
    else:
        members = f"members(id, g) AS (SELECT id, {GROUP_KEYS[by]} FROM todos WHERE {SHOWN}),"
    return f"""WITH RECURSIVE {members}
nodes AS (SELECT members.id, members.g, parent_id, list_id, {SORT_KEY} AS sort_key FROM members JOIN todos USING (id)),
tree(id, g, list_id, path) AS (
    SELECT id, g, list_id, sort_key FROM nodes AS n
    WHERE parent_id IS NULL OR NOT EXISTS (
        SELECT 1 FROM nodes AS p WHERE p.id = n.parent_id AND p.g IS n.g AND p.list_id = n.list_id AND p.id <> n.id)
    UNION ALL
    SELECT c.id, c.g, c.list_id, tree.path || c.sort_key FROM tree
    JOIN nodes AS c ON c.parent_id = tree.id AND c.g IS tree.g AND c.list_id = tree.list_id AND c.id <> tree.id)
SELECT {"" if by is None else "tree.g, "}{selected} FROM tree JOIN todos USING (id)
ORDER BY {"" if by is None else "tree.g IS NULL, tree.g, "}tree.path;"""


def list_sql(path):
    """The shell's side of every `todo list` figure on the file at `path`: the columns todo reads,
    the todos it shows, in its order; in tree order (`tree_sql`) when the file has subtasks, as
    `todo list` prints them then, else one flat SELECT in the list's order."""
    if has_subtasks(path):
        return tree_sql(path)
    return (f"SELECT {', '.join(columns(path))} FROM todos WHERE {SHOWN} "
            "ORDER BY deadline IS NULL, deadline, id")
