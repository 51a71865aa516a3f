"""Results saved per commit: bench/results/<commit>.json (ignored by git), one file per commit of
HEAD, every measured run (full or --quick; never --smoke) merging its parts into it:

  {"format": 1, "commit": "<40 hex>", "dirty": false, "subject": "<the commit's first line>",
   "machine": {"nproc": 2, "kernel": "6.1.0-...", "cpu": "...", "python": "3.11.7"},
   "parts": {"core": {"date": "2026-01-02T03:04:05Z", "mode": "quick", "seconds": 61.2,
                      "figures": [<figures.figure records>], "detail": {<the part's own numbers>}},
             "scale": {...}, ...}}

A part measured again on the same commit replaces the one before. The commit is HEAD when the run
started; `dirty` is true when the work tree then had changes to tracked files (its figures are of a
tree that is not the commit's).
"""
import datetime, glob, json, os, platform, subprocess

from .proc import ROOT

FORMAT = 1
DIRECTORY = os.path.join(ROOT, "bench", "results")


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True, check=True).stdout.strip()


def commit():
    """HEAD's id and first line, and whether tracked files differ from it."""
    return {"commit": git("rev-parse", "HEAD"), "subject": git("log", "-1", "--format=%s"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "kernel": platform.release(), "cpu": cpu, "python": platform.python_version()}


def part_record(mode, seconds, detail, figures):
    return {"date": now(), "mode": mode, "seconds": seconds, "figures": figures, "detail": detail}


def record(parts, head):
    """A results record of these parts ({name: part_record}) of `head` (commit()) on this
    machine; each part notes whether the tree was dirty when the run started."""
    for part in parts.values():
        part["dirty"] = head["dirty"]
    return {"format": FORMAT, **head, "machine": machine(), "parts": parts}


def load(path):
    with open(path) as f:
        return json.load(f)


def load_all(directory=DIRECTORY):
    records = []
    for path in glob.glob(os.path.join(directory, "*.json")):
        try:
            loaded = load(path)
        except (OSError, ValueError):
            continue
        if loaded.get("format") == FORMAT:
            loaded["path"] = path
            records.append(loaded)
    return records


def save(new, directory=DIRECTORY):
    """Merges the record's parts into its commit's file (written whole, then renamed); the path."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{new['commit']}.json")
    merged = load(path) if os.path.exists(path) else {}
    if merged.get("format") != FORMAT:
        merged = {}
    parts = {**merged.get("parts", {}), **new["parts"]}
    merged = {**new, "parts": parts}
    merged.pop("path", None)
    with open(path + ".tmp", "w") as f:
        json.dump(merged, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    return path


def newest(records):
    """The record holding the most recently measured part."""
    return max(records, key=lambda r: max(part["date"] for part in r["parts"].values()), default=None)


def newest_parts(records, order):
    """For each part name in `order`: (the record, the part) most recently measured, where one is."""
    found = {}
    for r in records:
        for name, part in r["parts"].items():
            if name not in found or part["date"] > found[name][1]["date"]:
                found[name] = (r, part)
    return [(name, *found[name]) for name in order if name in found]
