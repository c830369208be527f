"""A plot of draw probabilities: one line per need, one for all needs together (matplotlib, PNG)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cardbase.draws.exact import Need
from cardbase.draws.openings import Answer
from cardbase.textfiles import output_file


def plot_answers(
    answers: Sequence[Answer],
    needs: Sequence[Need],
    title: str,
    path: Path,
    by_turn: bool = False,
    note: str = "",
    notes: Sequence[str] = (),
) -> Path:
    """Draw the chance against cards seen (or turns) to ``path`` as a PNG; return the path. ``note``
    (how cards are seen) and ``notes`` (the deck's: demo cards, unknown values not counted, cards
    left out) go under the plot, which travels without the terminal's notes."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    xs = [a.turn if by_turn and a.turn is not None else a.seen for a in answers]
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    try:
        for i, need in enumerate(needs):
            ax.plot(xs, [float(a.each[i]) for a in answers], marker="o", linewidth=1.5, alpha=0.8, label=str(need))
        if len(needs) > 1:
            ax.plot(
                xs, [float(a.joint) for a in answers], marker="s", linewidth=2.8, color="black", label="all together"
            )
        ax.set_ylim(0, 1.02)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if by_turn:
            ax.set_xlabel("turn (cards seen: " + ", ".join(f"{a.seen}" for a in answers) + ")")
        else:
            ax.set_xlabel("cards seen")
        ax.set_ylabel("chance (exact)")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize=9)
        lines = [wrapped for text in [note, *notes] if text for wrapped in textwrap.wrap(text, 150)]
        if lines:
            fig.text(0.01, 0.01, "\n".join(lines), fontsize=7, color="dimgray", ha="left", va="bottom")
        fig.tight_layout(rect=(0, min(0.5, 0.015 + 0.022 * len(lines)) if lines else 0, 1, 1))
        with output_file(path, "plot") as temporary:
            fig.savefig(temporary, format="png")
    finally:
        plt.close(fig)
    return path
