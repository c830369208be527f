"""Plots of lab results with their 95% intervals (matplotlib, written through ``output_file``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import counted
from cardbase.textfiles import output_file

if TYPE_CHECKING:
    from cardbase.lab.cards import CardRate, CardsStudy
    from cardbase.lab.gauntlet import Gauntlet
    from cardbase.lab.opening import OpeningStudy

FORMATS = (".png", ".pdf", ".svg")


def check_plot_path(path: Path) -> None:
    """Refuse a ``--plot`` path before the games are played: its kind of file (by its ending),
    and what is there (``cardbase.textfiles.output_target``)."""
    from cardbase.errors import UsageError
    from cardbase.textfiles import output_target

    if path.suffix.lower() not in FORMATS:
        raise UsageError(f"--plot {path}: the file name ends in {', '.join(FORMATS)}")
    output_target(path, "plot")


TITLE_CHARS = 64
"""A title wraps at this many characters: at the titles' size it fits the narrowest panel."""


def _wrapped(text: str, width: int = TITLE_CHARS) -> str:
    import textwrap

    return textwrap.fill(text, width, break_on_hyphens=False)


def footnote(fig: Any, run: str, notes: list[str], provenance: dict[str, Any]) -> None:
    """The run under a lab plot, which travels without the terminal's notes: its games and seed (to
    run it again), every note (demo cards, cards left out, assumed values) and the cardbase that drew it."""
    version = provenance.get("version")
    revision = provenance.get("git_revision")
    made = f"cardbase {version}" + (f" at {str(revision)[:12]}" if revision else "") if version else ""
    lines = [_wrapped(line, 2 * TITLE_CHARS) for line in [run, *notes, made] if line]
    fig.supxlabel("\n".join(lines), fontsize="x-small", ha="left", x=0.01)


def _width(labels: list[str]) -> float:
    """Inches of a figure whose rows carry ``labels``: the longest label and a panel beside it."""
    return max(8.0, 4.5 + 0.075 * max((len(label) for label in labels), default=0))


def _bars(ax: Any, labels: list[str], values: list[float], lows: list[float], highs: list[float], unit: str) -> None:
    """One row per label: the value (a fraction, drawn in percent or points as the tables show it) with
    its interval; a value that is unknown (NaN: no games to compare) has no marker, and says so."""
    ys = list(range(len(labels)))
    known = [i for i, v in enumerate(values) if not math.isnan(v)]
    xs = [100 * values[i] for i in known]
    err = [[100 * (values[i] - lows[i]) for i in known], [100 * (highs[i] - values[i]) for i in known]]
    ax.errorbar(xs, [ys[i] for i in known], xerr=err, fmt="o", capsize=3)
    shown = [label if not math.isnan(v) else f"{label} (no figure)" for label, v in zip(labels, values, strict=True)]
    ax.set_yticks(ys, shown)
    ax.set_xlabel(unit)
    ax.invert_yaxis()


def plot_gauntlet(result: Gauntlet, path: Path) -> None:
    """Win rate per match-up, and per card the improvement when drawn, each with its interval."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    cards = result.cards
    labels = [c.name + " (few games) (no figure)" for c in cards] + [f"vs {m.opponent}" for m in result.matchups]
    fig = Figure(figsize=(_width(labels), 2.5 + 0.35 * (len(result.matchups) + len(cards))), layout="constrained")
    top, bottom = fig.subplots(2, 1, height_ratios=[max(1, len(result.matchups) + 1), max(1, len(cards))])
    o = result.overall
    rows = [("overall", o), *((m.opponent, m.result) for m in result.matchups)]
    _bars(
        top,
        [f"vs {n}" if n != "overall" else n for n, _ in rows],
        [r.rate for _, r in rows],
        [r.ci[0] for _, r in rows],
        [r.ci[1] for _, r in rows],
        "win rate (%)",
    )
    top.axvline(50, color="grey", linewidth=0.8)
    top.set_xlim(0, 100)
    top.set_title(_wrapped(f"{result.deck}: win rate by match-up (95% Wilson)"))
    _bars(
        bottom,
        [c.name + (" (few games)" if c.too_few else "") for c in cards],
        [c.improvement.value for c in cards],
        [c.improvement.low for c in cards],
        [c.improvement.high for c in cards],
        "points",
    )
    bottom.axvline(0.0, color="grey", linewidth=0.8)
    bottom.set_title(_wrapped("improvement when drawn: in hand − not drawn (95% Newcombe)"), fontsize="medium")
    footnote(
        fig,
        f"{counted(result.games_per_matchup, 'game')} per match-up ({result.agents[0]} against {result.agents[1]}), "
        f"each deck first in half; seed {result.seed}",
        result.notes,
        result.provenance,
    )
    with output_file(path, "plot") as tmp:
        fig.savefig(tmp, format=path.suffix.lower().lstrip("."))


def plot_opening(study: OpeningStudy, path: Path) -> None:
    """Win rate by forced opening size with intervals."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    xs = [s.size for s in study.sizes]
    ys = [s.result.rate for s in study.sizes]
    err = [
        [y - s.result.ci[0] for y, s in zip(ys, study.sizes, strict=True)],
        [s.result.ci[1] - y for y, s in zip(ys, study.sizes, strict=True)],
    ]
    ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3)
    ax.set_xticks(xs)
    ax.set_xlabel("opening draw (cards)")
    ax.set_ylabel("win rate")
    ax.set_title(_wrapped(f"{study.deck} vs {study.vs}: win rate by opening size (95% Wilson)"))
    footnote(
        fig,
        f"{counted(study.games_per_size, 'game')} per size ({study.agent} against {study.opponent_agent}, the opening "
        f"forced), "
        f"every size from seed {study.seed}",
        study.notes,
        study.provenance,
    )
    with output_file(path, "plot") as tmp:
        fig.savefig(tmp, format=path.suffix.lower().lstrip("."))


def _card_label(c: CardRate) -> str:
    return c.name + (" (assumed)" if c.assumed else "") + (" (few games)" if c.too_few else "")


def plot_cards(study: CardsStudy, path: Path) -> None:
    """Meikyu: per Kingdom card and per land, the win rate with it minus without it, with its
    interval; cards with assumed values are marked "(assumed)"."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    panels = [
        (rows, what)
        for rows, what in ((study.kingdom, "Kingdom cards, in hand"), (study.lands, "lands, in kingdom"))
        if rows
    ]
    labels = [_card_label(c) + " (no figure)" for rows, _ in panels for c in rows]
    fig = Figure(figsize=(_width(labels), 2.5 + 0.3 * sum(len(rows) for rows, _ in panels)), layout="constrained")
    axes = fig.subplots(
        max(1, len(panels)), 1, height_ratios=[max(1, len(rows)) for rows, _ in panels] or None, squeeze=False
    )
    for ax, (rows, what) in zip(axes[:, 0], panels, strict=False):
        _bars(
            ax,
            [_card_label(c) for c in rows],
            [c.difference.value for c in rows],
            [c.difference.low for c in rows],
            [c.difference.high for c in rows],
            "points",
        )
        ax.axvline(0.0, color="grey", linewidth=0.8)
        ax.set_title(_wrapped(f"{what}: win rate with − without (95% Newcombe)"), fontsize="medium")
    fig.suptitle(
        _wrapped(
            f"Meikyu, {counted(study.players, 'player')}, {counted(study.games, 'game')} ({', '.join(study.agents)})"
            + ("; (assumed): values from the assumption profile" if study.assumed else ""),
            2 * TITLE_CHARS,
        ),
        fontsize="medium",
    )
    footnote(fig, f"{counted(study.games, 'game')}; seed {study.seed}", study.assumed[:1], study.provenance)
    with output_file(path, "plot") as tmp:
        fig.savefig(tmp, format=path.suffix.lower().lstrip("."))
