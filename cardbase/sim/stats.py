"""95% intervals for simulation results (the formulas are in :mod:`cardbase.stats`)."""

from __future__ import annotations

import math

from cardbase.stats import Z95, mean_interval, wilson

__all__ = ["Z95", "mean_interval", "number", "wilson_interval"]


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Proportion and its Wilson score interval (all NaN for no games)."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    low, high = wilson(successes, n, z)
    return (successes / n, low, high)


def number(x: float) -> float | None:
    """``x`` for JSON: NaN (no games) and an infinite bound (one sample) as null."""
    return x if math.isfinite(x) else None
