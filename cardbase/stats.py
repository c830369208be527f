"""95% intervals shared by the draw odds (``draws/``), the simulations (``sim/``) and the advice (``lab/``).

Which interval for what:

* a proportion (wins of games): :func:`wilson`; a difference of two: :func:`difference_interval`;
* the mean of many values: :func:`mean_interval`, mean ± 1.96·s/√n;
* a mean game score or length, from any number of games: :func:`score_interval`, within the
  range the rules allow (the bounded interval where both ends are known, else Student's t cut at
  the known end: two games do not give a point, nor a negative count);
* the mean of a **bounded** score from few samples (a split's round score over a handful of deals,
  a hint's playouts): :func:`bounded_mean_interval`, which is never a point and stays honest
  when every sample so far is the same;
* the mean of an unbounded score from few samples: :func:`t_interval` (Student's t).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

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


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and its Student t interval, mean ± t(n−1)·s/√n: for the mean of a score with no useful
    bound from few samples. One value gives the whole line (−inf, inf); values that are all equal
    give the mean itself (nothing in the samples says how much they vary: say so where it shows)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, -math.inf, math.inf)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


BOUND_PRIOR = 0.5
"""Weight of the pseudo-observation at each end of a bounded score's range (Jeffreys' ½)."""


def bounded_mean_interval(
    values: Sequence[float], low: float, high: float, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Mean and a 95% interval of the mean of a score known to lie in ``[low, high]``.

    The Bayesian bootstrap (Rubin 1981) of the samples with half a pseudo-observation at each end
    of the range: the mean is ``Σ wᵢ·xᵢ`` with weights ``w ~ Dirichlet(1, …, 1, ½, ½)`` over the
    samples and the two ends; its distribution is taken as the Beta (on ``[low, high]``) with the
    same mean and variance, and the interval is that Beta's 2.5% and 97.5% points, stretched to
    hold the sample mean. For scores that are only ``low`` or ``high`` (a win or a loss) this is
    exactly the Jeffreys interval of a proportion (Brown, Cai & DasGupta 2001). Why not the normal
    interval: two samples that agree give it zero width; here they give most of the range, and
    ``n`` equal samples leave room for a rare value about as the rule of three does (the upper
    end at about 3.7/n of the range). With many samples it is the usual mean ± 1.96·s/√n.
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    if not high > low:
        raise ValueError(f"a bounded score needs low < high, not {low}, {high}")
    span = high - low
    scaled = [(v - low) / span for v in values]
    if any(not -1e-9 <= z <= 1 + 1e-9 for z in scaled):
        raise ValueError(f"a value lies outside [{low}, {high}]")
    sample_mean = math.fsum(scaled) / n
    weight = n + 2 * BOUND_PRIOR
    centre = (math.fsum(scaled) + BOUND_PRIOR) / weight  # the high end counts 1·½, the low end 0·½
    second = (math.fsum(z * z for z in scaled) + BOUND_PRIOR) / weight
    var = max(second - centre * centre, 1e-300) / (weight + 1)
    size = centre * (1 - centre) / var - 1  # a + b of the Beta with this mean and variance
    a, b = centre * size, (1 - centre) * size
    tail = (1 - confidence) / 2
    lo = min(beta_quantile(tail, a, b), sample_mean)
    hi = max(beta_quantile(1 - tail, a, b), sample_mean)
    return (low + sample_mean * span, low + max(0.0, lo) * span, low + min(1.0, hi) * span)


def score_interval(
    values: Sequence[float], low: float | None, high: float | None, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Mean and a 95% interval of a mean score that lies in ``[low, high]`` (None: no bound at that
    end). Both ends known: :func:`bounded_mean_interval`; else the Student t interval cut at the end
    that is known (a handful of games gives a wide interval, never one below the least possible
    score). Samples that are all the same say nothing of the spread, and without both ends nothing
    else does: then the interval is the whole range, the ends not known infinite (as for one game)."""
    if low is not None and high is not None:
        return bounded_mean_interval(values, low, high, confidence)
    mean, lo, hi = t_interval(values, confidence)
    if values and lo == hi:
        lo, hi = -math.inf, math.inf
    if low is not None and not math.isnan(lo):
        lo = max(lo, low)
    if high is not None and not math.isnan(hi):
        hi = min(hi, high)
    return (mean, lo, hi)


def intervals_overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two intervals share a point: then the two estimates cannot be told apart."""
    return a[0] <= b[1] and b[0] <= a[1]


# --- the distributions behind the intervals --------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b): P(X ≤ x) for X ~ Beta(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def beta_quantile(p: float, a: float, b: float) -> float:
    """The ``p`` quantile of Beta(a, b) (bisection on :func:`beta_cdf`, to about 1e-15)."""
    if not 0.0 < p < 1.0:
        return 0.0 if p <= 0.0 else 1.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if beta_cdf(mid, a, b) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom."""
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    x = beta_quantile(2.0 * (1.0 - p), df / 2.0, 0.5)  # P(T > t) = I_{df/(df+t²)}(df/2, ½) / 2
    return math.sqrt(df * (1.0 - x) / x)


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


MOST_PLACES = 4
"""The most decimal places an estimate is ever shown with (a very narrow interval still stops here)."""


def places(low: float, high: float, scale: float = 100.0) -> int:
    """How many decimal places an estimate with the interval ``low``–``high`` has, in units of
    ``1/scale`` (percentage points by default): the place of the first significant digit of the
    interval's half-width. A rate of 2 wins in 20 (half-width 14 points) has none: 10%, not 10.0%;
    one of 10,000 trials (half-width 0.4 points) one: 73.8%. An interval of no width (an exact
    figure) has :data:`MOST_PLACES`; one whose width is not known (an end NaN or infinite) too, but
    :func:`shown` gives its value no digit past the value's first."""
    half = scale * (high - low) / 2
    if not (math.isfinite(half) and half > 0):
        return MOST_PLACES
    return min(MOST_PLACES, max(0, -math.floor(math.log10(half) + 1e-9)))  # 12.1 - 11.9 is 0.1999…


def shown(
    value: float, low: float, high: float, scale: float = 100.0, signed: bool = False, rate: bool = False
) -> tuple[str, str, str]:
    """``value`` and its interval's ends as text, in units of ``1/scale`` (percentage points by
    default), with no more digits than the interval gives them (:func:`places`); the ends rounded
    outward, so that the interval shown is never narrower than it is; the value rounded half up, as a
    reader rounds. A ``rate`` strictly between 0 and 1 gets as many more digits as it takes not to
    read as none or all. ``—`` for a NaN value; ``?`` for an end that is not a finite number, and
    then the value has no digit past its first (the mean of one deal is 5, not 5.0000: nothing says
    how sure it is)."""
    if math.isnan(value):
        return "—", "—", "—"
    d = places(low, high, scale)
    if not (math.isfinite(low) and math.isfinite(high)):
        x = abs(scale * value)
        d = 0 if x == 0 or x >= 1 or not math.isfinite(x) else min(MOST_PLACES, -math.floor(math.log10(x)))
    while rate and 0 < value < 1 and float(_half_up(scale * value, d)) in (0.0, scale) and d < 12:
        d += 1  # a rate between 0 and 1 is never shown as 0% or 100%: 1,999 of 2,000 is 99.95%, not 100.0%
    unit = 10.0**-d
    sign = "+" if signed else ""

    def end(x: float, rounding: Callable[[float], float]) -> str:
        if not math.isfinite(x):
            return "?"
        # a hair of tolerance: 0.07 * 100 is 7.000000000000001, which must not round up to 8
        return f"{rounding(round(scale * x / unit, 6)) * unit:{sign}.{d}f}"

    text = _half_up(scale * value, d)
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]  # -0.0004 is 0 at this precision: no sign of its own
    return (f"+{text}" if signed and not text.startswith("-") else text), end(low, math.floor), end(high, math.ceil)


def _half_up(x: float, d: int) -> str:
    """``x`` to ``d`` decimal places, a half rounded away from zero (0.5 is 1, not the even 0)."""
    from decimal import ROUND_HALF_UP, Decimal

    return str(Decimal(repr(x)).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP))


def rate_text(rate: float, low: float, high: float) -> tuple[str, str]:
    """A rate and its interval in percent, each to the digits the interval gives (:func:`shown`):
    ``("7%", "1%–22%")`` for 2 wins of 30; ``("—", "—")`` for a rate of no games (NaN)."""
    value, lo, hi = shown(rate, low, high, rate=True)
    if value == "—":
        return "—", "—"
    return f"{value}%", f"{lo}%–{hi}%"
