"""95% intervals shared by the draw odds (``draws/``) and the simulations (``sim/``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default); sound near 0 and 1."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At 0 or all successes the bound is exactly 0 or 1; floating point leaves a hair's breadth.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval, mean ± z·s/√n (s: sample SD).

    With fewer than two values the interval is the mean itself.
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def difference_interval(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float = Z95
) -> tuple[float, float, float]:
    """``p_a - p_b`` and its interval by Newcombe's hybrid score method (his method 10, from the two
    Wilson intervals); all NaN when either side has no trials."""
    if trials_a <= 0 or trials_b <= 0:
        return (math.nan, math.nan, math.nan)
    pa, pb = successes_a / trials_a, successes_b / trials_b
    la, ua = wilson(successes_a, trials_a, z)
    lb, ub = wilson(successes_b, trials_b, z)
    d = pa - pb
    return (d, d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


def percent(p: float) -> str:
    """A chance in percent with two decimals, or as many more as it takes not to round to 0% or 100%."""
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    for digits in range(2, 12):
        text = f"{100 * p:.{digits}f}"
        if float(text) not in (0.0, 100.0):
            return text + "%"
    return f"{100 * p:.3g}%"
