"""A figure as the results file, compare and the report hold it, whatever part measured it.

  {"name": "scale.watch_commit@10k", "part": "scale", "value": 3.1, "unit": "ms", "stat": "p95",
   "baseline": null, "baseline_name": null, "better": "lower", "ratio": null,
   "goal": {"of": "value", "at_most": 5}, "passed": true, "timeouts": 0, "context": false}

ratio is stats.cost_ratio: todo's cost as a multiple of the baseline's (below 1 is better than the
baseline). A goal is an upper bound on the value or on the ratio; passed is whether it was met
(and no sample timed out), null where there is no goal or goals are not judged (--smoke).
Context figures explain others; they have no goal and compare does not check them.
"""
from .stats import cost_ratio


def figure(name, value, unit, *, stat="", baseline=None, baseline_name=None, better="lower", goal=None,
           goal_of="ratio", timeouts=0, context=False):
    ratio = cost_ratio(value, baseline, better)
    judged = ratio if goal_of == "ratio" else value
    passed = None if goal is None or judged is None else bool(judged <= goal and not timeouts)
    return {"name": name, "part": name.split(".", 1)[0], "value": value, "unit": unit, "stat": stat,
            "baseline": baseline, "baseline_name": baseline_name, "better": better, "ratio": ratio,
            "goal": None if goal is None else {"of": goal_of, "at_most": goal}, "passed": passed,
            "timeouts": timeouts, "context": context}


def judge(figures, mode):
    """Goals are not judged in a smoke run: figures at tiny sizes mean nothing."""
    if mode == "smoke":
        for f in figures:
            f["passed"] = None
    return figures


def size_label(size):
    """10k, 1M, 30: a count of todos as figure names and tables show it."""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1_000 and size % 1_000 == 0:
        return f"{size // 1_000}k"
    return str(size)


def bytes_label(size):
    """1MB, 10kB, 300B: an object's size (powers of 10) in figure names."""
    for unit, scale in (("MB", 1_000_000), ("kB", 1_000)):
        if size >= scale and size % scale == 0:
            return f"{size // scale}{unit}"
    return f"{size}B"


def goal_text(goal):
    if not goal:
        return "-"
    return f"{'ratio' if goal['of'] == 'ratio' else 'value'} <= {goal['at_most']:g}"


def verdict(f):
    if f["passed"] is None:
        return "-" if f["goal"] is None else "not judged"
    return "met" if f["passed"] else "MISSED"


def number(value):
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"


def table(figures, out):
    """Every figure of a part, one line each: the one table every part shares."""
    print(f"  {'figure':<22}{'value':>12} {'unit':<18}{'baseline':>12}{'ratio':>8}  {'goal':<16}verdict", file=out)
    for f in figures:
        name = f["name"].split(".", 1)[1]
        unit = f["unit"] + (" " + f["stat"] if f["stat"] else "")
        ratio = "-" if f["ratio"] is None else f"{f['ratio']:.2f}x"
        timeouts = f" ({f['timeouts']} t/o)" if f["timeouts"] else ""
        print(f"  {('(' + name + ')') if f['context'] else name:<22}{number(f['value']):>12} {unit:<18}"
              f"{number(f['baseline']):>12}{ratio:>8}  {goal_text(f['goal']):<16}{verdict(f)}{timeouts}", file=out)
