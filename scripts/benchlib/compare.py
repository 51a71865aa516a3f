"""`scripts/bench compare [RESULTS.json]` and `scripts/bench ... --check`: fails (exit 1) when a goal
is missed, or when a figure got worse than in the last saved run of another commit.

The run checked: the file given, else the newest saved one (bench/results/). For each of its parts,
the run compared with is the newest saved part of the same name and mode (full or --quick) measured
before it at another commit. Figures are matched by name (sizes are in the names); context figures
are not compared. This machine has 2 cores shared with builds, so a figure is compared through its
ratio to the baseline measured beside it in the same run wherever it has one, which cancels most of
the machine's mood:
  a figure with a baseline is WORSE when its cost ratio (stats.cost_ratio) grew by more than 25 %
  a figure without one is WORSE when its own cost (the value; 1/value for a rate) grew by more than 50 %
(--threshold and --absolute-threshold change them). A part with no earlier run to compare with is
judged on its goals alone.
"""
from .figures import goal_text, number

THRESHOLD = 0.25
ABSOLUTE_THRESHOLD = 0.50


def previous_part(records, current, name, part):
    """The newest part `name` of another commit than `current`'s, in the same mode, measured before."""
    candidates = [(r, r["parts"][name]) for r in records
                  if r["commit"] != current["commit"] and name in r["parts"]
                  and r["parts"][name]["mode"] == part["mode"] and r["parts"][name]["date"] < part["date"]]
    return max(candidates, key=lambda found: found[1]["date"], default=None)


def change(now, before):
    """How much costlier the figure got (0.3: 30 % worse; negative: better), and what was compared
    ("ratio" or "value"); (None, why) where the two cannot be compared."""
    if now["ratio"] is not None and before["ratio"] is not None:
        if not before["ratio"]:
            return None, "ratio was 0"
        return now["ratio"] / before["ratio"] - 1, "ratio"
    a, b = now["value"], before["value"]
    if not a or not b:
        return None, "a value of 0"
    return (a / b if now["better"] == "lower" else b / a) - 1, "value"


def check(current, records, threshold=THRESHOLD, absolute_threshold=ABSOLUTE_THRESHOLD, out=None):
    """Prints what was checked; returns the failures (one line each: empty when all is well)."""
    failures = []
    def say(text):
        if out:
            print(text, file=out)
    say(f"compare: {current['commit'][:12]}{' (dirty)' if current.get('dirty') else ''}; WORSE when a ratio to the "
        f"baseline grew by more than {threshold:.0%}, or a figure without a baseline by more than "
        f"{absolute_threshold:.0%}, against the last saved run of another commit in the same mode")
    for name, part in current["parts"].items():
        found = previous_part(records, current, name, part)
        before = {f["name"]: f for f in found[1]["figures"]} if found else {}
        say(f"{name} ({part['mode']}, {part['date']}): " + (
            f"against {found[0]['commit'][:12]} ({found[1]['date']})" if found else "no earlier run of another commit "
            "in this mode: goals only"))
        for f in part["figures"]:
            verdicts = []
            if f["passed"] is False:
                verdicts.append(f"MISSED its goal ({goal_text(f['goal'])})")
            old = before.get(f["name"])
            compared = ""
            if old and not f["context"]:
                grown, what = change(f, old)
                if grown is not None:
                    limit = threshold if what == "ratio" else absolute_threshold
                    shown = (f"{old['ratio']:.2f}x -> {f['ratio']:.2f}x" if what == "ratio"
                             else f"{number(old['value'])} -> {number(f['value'])} {f['unit']}")
                    compared = f"{what} {shown} ({grown:+.0%})"
                    if grown > limit:
                        verdicts.append(f"WORSE by {grown:.0%} (over {limit:.0%})")
            if verdicts:
                failures.append(f"{f['name']}: {'; '.join(verdicts)} {compared}".rstrip())
            if compared or verdicts:
                say(f"  {f['name']:<44}{compared:<44}{'; '.join(verdicts) or 'ok'}")
    say(f"compare: {len(failures)} failure{'s' * (len(failures) != 1)}" + "".join(f"\n  {line}" for line in failures))
    return failures
