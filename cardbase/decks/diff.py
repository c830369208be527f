"""``deck diff``: what changed from one deck to another, card by card, and which statistics moved."""

from __future__ import annotations

from typing import Any

from cardbase.decks.service import choose_format
from cardbase.decks.stats import deck_stats, is_summary, stat_label, stat_text
from cardbase.decks.validate import ResolvedDeck
from cardbase.errors import UsageError

_SKIP = {"name", "game"}


def _counts(resolved: ResolvedDeck) -> dict[tuple[str, str | None], tuple[str, int]]:
    out: dict[tuple[str, str | None], tuple[str, int]] = {}
    for c in resolved.deck.cards:
        name, n = out.get((c.card_id, c.section), (c.name, 0))
        out[(c.card_id, c.section)] = (name, n + c.count)
    return out


def _flat(data: dict[str, Any]) -> dict[str, Any]:
    """Statistics one level deep (``mana_curve.3``), so a moved bucket is named."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SKIP:
            continue
        if isinstance(value, dict) and not is_summary(value):
            for k, v in value.items():
                out[f"{key}.{k}"] = v
        else:
            out[key] = value
    return out


def _in_order(keys: list[str]) -> list[str]:
    """The statistics of both decks once each, in the order they come, a statistic's buckets together
    (one only the second deck has among the others, not after every statistic) and numeric ones in
    numeric order (``mana_curve.3`` before ``mana_curve.10``; ``?`` after them)."""
    unique = list(dict.fromkeys(keys))
    first: dict[str, int] = {}
    for i, key in enumerate(unique):
        first.setdefault(key.split(".", 1)[0], i)

    def place(item: tuple[int, str]) -> tuple[int, int, int, int]:
        i, key = item
        group, _, bucket = key.partition(".")
        number = bucket.isascii() and bucket.isdecimal()
        return (first[group], 0 if number else 1, int(bucket) if number else 0, i)

    return [key for _, key in sorted(enumerate(unique), key=place)]


def deck_diff(a: ResolvedDeck, b: ResolvedDeck) -> dict[str, Any]:
    """Cards added to, removed from and changed in count from ``a`` to ``b`` (per section), and the
    statistics (of ``deck stats``) whose value differs. Decks of two games are a usage error."""
    if a.game != b.game:
        raise UsageError(
            f"{a.source} is a {a.game} deck and {b.source} a {b.game} deck; diff compares decks of one game"
        )
    ca, cb = _counts(a), _counts(b)

    def entry(key: tuple[str, str | None], name: str, **counts: int) -> dict[str, Any]:
        return {"name": name, "id": key[0], "section": key[1], **counts}

    added = [entry(k, cb[k][0], count=cb[k][1]) for k in cb if k not in ca]
    removed = [entry(k, ca[k][0], count=ca[k][1]) for k in ca if k not in cb]
    changed = [entry(k, cb[k][0], before=ca[k][1], after=cb[k][1]) for k in cb if k in ca and ca[k][1] != cb[k][1]]
    sa = _flat(deck_stats(a, choose_format(a, None, None)[0]))
    sb = _flat(deck_stats(b, choose_format(b, None, None)[0]))
    moved = []
    for key in _in_order([*sa, *sb]):
        absent = 0 if "." in key else None  # a bucket one deck lacks holds 0 cards
        before, after = sa.get(key, absent), sb.get(key, absent)
        if before != after:
            moved.append({"stat": key, "before": before, "after": after})
    return {
        "a": a.source,
        "b": b.source,
        "game": a.game,
        "added": added,
        "removed": removed,
        "changed": changed,
        "stats": moved,
    }


def diff_lines(diff: dict[str, Any]) -> list[str]:
    """The diff as lines a player reads: ``+2 Crumb Goblin``, ``-1 …``, ``Selounticia 3 → 2``, stats that moved."""

    def where(e: dict[str, Any]) -> str:
        return f" [{e['section']}]" if e["section"] else ""

    lines = [
        f"{diff['a']} → {diff['b']} ({diff['game']}): {len(diff['added'])} added, "
        f"{len(diff['removed'])} removed, {len(diff['changed'])} changed"
    ]
    lines += [f"  +{e['count']} {e['name']}{where(e)}" for e in diff["added"]]
    lines += [f"  -{e['count']} {e['name']}{where(e)}" for e in diff["removed"]]
    lines += [f"  {e['name']}{where(e)}: {e['before']} → {e['after']}" for e in diff["changed"]]
    if not (diff["added"] or diff["removed"] or diff["changed"]):
        lines.append("  the same cards")
    if diff["stats"]:
        lines.append("stats that moved:")
        lines += [
            f"  {stat_label(s['stat'])}: {stat_text(s['before'])} → {stat_text(s['after'])}" for s in diff["stats"]
        ]
    return lines
