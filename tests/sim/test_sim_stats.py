"""95% intervals, checked against scipy."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from cardbase.sim.stats import mean_interval, wilson_interval


@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5], [0, 0, 1, 7, 3, 3, 2, 9], [4.5, 4.5, 4.75]])
def test_mean_interval_is_mean_plus_minus_1_96_s_over_root_n(values):
    mean, lo, hi = mean_interval(values)
    n = len(values)
    half = stats.norm.ppf(0.975) * stats.tstd(values) / math.sqrt(n)
    assert mean == pytest.approx(sum(values) / n)
    assert lo == pytest.approx(mean - half)
    assert hi == pytest.approx(mean + half)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (512, 1000), (1, 1)])
def test_wilson_matches_scipy(k, n):
    p, lo, hi = wilson_interval(k, n)
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert p == pytest.approx(k / n)
    assert lo == pytest.approx(ci.low, abs=1e-9)
    assert hi == pytest.approx(ci.high, abs=1e-9)


def test_degenerate_inputs():
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
    assert all(math.isnan(x) for x in mean_interval([]))
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


@pytest.mark.parametrize("n", [1, 7, 1000])
def test_wilson_bounds_are_exact_at_zero_and_all(n):
    assert wilson_interval(0, n)[1] == 0.0
    assert wilson_interval(n, n)[2] == 1.0
