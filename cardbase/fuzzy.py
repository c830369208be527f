"""Did-you-mean: the names closest to a misspelt one, and the one name a typed fragment stands
for (one matcher for the catalog, decks, rules and the play prompt).

Every comparison is on folded text (:func:`cardbase.names.fold`: case and accents dropped, as
search does), so ``jalapeno`` finds Jalapeño Imp and ``CRÈME`` Crème Golem.

Pure (no I/O), so that ``cardbase.games`` may use it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from cardbase.errors import quoted
from cardbase.names import fold

T = TypeVar("T")

MAX_FUZZY = 300
"""The longest name matched by likeness: longer than any card, deck or option name (difflib's work
grows with the product of the lengths)."""

CLOSE = 0.8
"""How like a name (difflib's ratio, 0 to 1) a typed fragment must be to stand for it."""
SURE = 0.9
"""A close spelling this like the best name stands for it even when others are close too."""


class AmbiguousName(ValueError):
    """A typed name that fits several names; ``candidates`` lists them."""

    def __init__(self, fragment: str, candidates: Sequence[str]):
        super().__init__(f"{quoted(fragment)} could be {', '.join(candidates)}: type more of the name")
        self.fragment = fragment
        self.candidates = tuple(candidates)


def closest(name: str, choices: Mapping[str, T], n: int = 3, cutoff: float = 0.6, partial: bool = False) -> list[T]:
    """The values of the (up to) ``n`` keys of ``choices`` most like ``fold(name)``, best first, each once.

    The keys are folded names (see :func:`cardbase.names.fold`), the values what to suggest.
    ``cutoff`` is difflib's similarity ratio (0 to 1); with ``partial``, when nothing is that close,
    the keys that contain the name (a word of it, e.g. ``dragon``) are taken in their order.
    A name longer than :data:`MAX_FUZZY` has none.
    """
    if len(name) > MAX_FUZZY:
        return []
    key = fold(name)
    keys = difflib.get_close_matches(key, list(choices), n=n, cutoff=cutoff)
    if not keys and partial:
        keys = [k for k in choices if key in k][:n]
    return list(dict.fromkeys(choices[k] for k in keys))


class Near(NamedTuple):
    """A card name suggested (:func:`closest_cards`), and its game when the suggestion must say it
    (``None``: the game asked for, or the only game suggested when none was asked for)."""

    name: str
    game: str | None = None


def closest_cards(
    name: str,
    cards: Iterable[tuple[str, str, str]],
    game: str | None = None,
    n: int = 3,
    cutoff: float = 0.6,
    partial: bool = False,
) -> list[Near]:
    """The card names most like ``name`` (:func:`closest`) among ``cards``, each a folded key, the name
    it stands for and its game: the one did-you-mean of every card lookup. The cards of ``game`` (the
    deck's, the command's) come first; another game's follow only if they are :data:`CLOSE` (a
    misspelling of one, never a guess), one at least even after ``n`` of the game's, each saying its
    game. With no ``game``, every game's are offered alike, each saying its game when they are of
    several."""
    own: dict[str, tuple[str, str]] = {}
    other: dict[str, tuple[str, str]] = {}
    for key, card, of in cards:
        (own if game is None or of == game else other).setdefault(key, (card, of))
    found = closest(name, own, n=n, cutoff=cutoff, partial=partial)
    if other:  # room for one at least: a misspelt card of another game is the likeliest meaning
        found += closest(name, other, n=max(1, n - len(found)), cutoff=max(cutoff, CLOSE))
    several = len({of for _, of in found}) > 1
    return [Near(card, of if of != game and (game is not None or several) else None) for card, of in found]


def near_text(near: Sequence[str | Near], named: Callable[[str], str] = str, joiner: str = ", ") -> str:
    """``near`` as a did-you-mean lists them: each name quoted, one of another game with it
    (``'Room of the Money Eater' (a meikyu card)``); ``named`` words a game (its id, or its display
    name for players)."""

    def one(n: str | Near) -> str:
        if isinstance(n, str):
            return quoted(n)
        return quoted(n.name) + (f" (a {named(n.game)} card)" if n.game else "")

    return joiner.join(map(one, near))


def begins(fragment: str, name: str) -> bool:
    """``fragment`` begins ``name``, or its words begin words of ``name`` in order
    (``ferret`` and ``pick fer`` begin Pickpocket Ferret), folded."""
    key, folded = fold(fragment), fold(name)
    if not key:
        return False
    if folded.startswith(key):
        return True
    typed = key.split()
    k = 0
    for word in folded.split():
        if k < len(typed) and word.startswith(typed[k]):
            k += 1
    return k == len(typed)


def match(fragment: str, names: Iterable[str]) -> str | None:
    """The one name of ``names`` that ``fragment`` stands for, folded: the name itself, the only
    name it begins (see :func:`begins`), or the only close spelling (or one much closer than the
    rest). ``None`` if none; :class:`AmbiguousName`, listing them, if several fit."""
    by_key: dict[str, list[str]] = {}
    for n in dict.fromkeys(names):
        by_key.setdefault(fold(n), []).append(n)
    key = fold(fragment)
    if key in by_key:
        exact = by_key[key]
        if len(exact) > 1:
            raise AmbiguousName(fragment, sorted(exact))
        return exact[0]
    hits = [n for k, same in by_key.items() if begins(key, k) for n in same]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise AmbiguousName(fragment, sorted(hits))
    if len(key) > MAX_FUZZY:
        return None
    close = difflib.get_close_matches(key, list(by_key), n=3, cutoff=CLOSE)
    found = [n for k in close for n in by_key[k]]
    if len(found) == 1 or (close and len(by_key[close[0]]) == 1 and _ratio(key, close[0]) >= SURE):
        return found[0]
    if found:
        raise AmbiguousName(fragment, sorted(found))
    return None


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()
