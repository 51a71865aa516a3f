"""The bench's one percentile rule, and the summaries built on it.

Nearest rank: the p-th percentile of n samples is the sample at rank ceil(p * n / 100) (1-based)
of the samples sorted from smallest to largest, never below rank 1. It is always one of the
samples (no interpolation), so a time-out recorded at its limit shows as that limit:
  p95 of 30 samples: rank 29, the second largest;  p95 of 20: rank 19;  p95 of 60: rank 57;
  p50 of 41: rank 21, the middle one;  p50 of 10: rank 5, the lower of the two middle ones.
The rank is computed in integers, so no float rounding moves it. Every p50 ("median") and p95 of
every part goes through `percentile`.
"""


def percentile(values, p):
    """The nearest-rank p-th percentile (p an integer from 1 to 100) of a non-empty sequence."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("a percentile of no samples")
    if not (isinstance(p, int) and 0 < p <= 100):
        raise ValueError(f"percentile {p!r}: an integer from 1 to 100")
    rank = max(1, -(-p * len(ordered) // 100))   # ceil(p * n / 100) in integers
    return ordered[rank - 1]


def p50(values):
    return percentile(values, 50)


def p95(values):
    return percentile(values, 95)


def summary(values, unit="ms", timeouts=0):
    """p50, p95, min and max of some samples, how many, and how many of them timed out."""
    return {"p50": p50(values), "p95": p95(values), "min": min(values), "max": max(values),
            "samples": len(values), "timeouts": timeouts, "unit": unit}


def cost_ratio(value, baseline, better="lower"):
    """todo's cost as a multiple of its baseline's: value / baseline for a time, a size or a CPU
    figure (lower is better), baseline / value for a rate (higher is better). Below 1: todo does
    better than its baseline. None without a baseline (or with a zero on the dividing side)."""
    if baseline is None or value is None:
        return None
    top, bottom = (value, baseline) if better == "lower" else (baseline, value)
    return top / bottom if bottom else None
