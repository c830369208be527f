"""Reading Meikyu's action notation (``attack P2 Farm with Bee by Gotcha!``): names matched as
the players type them (case, accents, a missing ``!``), every refusal naming what is wrong."""

from __future__ import annotations

from cardbase.errors import quoted
from cardbase.fuzzy import closest
from cardbase.games.base import (
    InvalidAction,
    check_notation,
    whole_number,
)
from cardbase.games.meikyu.actions import (
    CARD_VERBS,
    COUNCIL,
    WORDS,
    Attack,
    Defend,
    Develop,
    MeikyuAction,
    MixedArea,
    Quest,
)
from cardbase.games.meikyu.rules import MeikyuRules
from cardbase.games.meikyu.tables import MeikyuTables
from cardbase.names import fold

# --- parsing -----------------------------------------------------------------------


def _strip_quotes(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def _kingdom_name(t: MeikyuTables, text: str) -> str:
    key = fold(_strip_quotes(text))
    if key in t.klookup:
        return t.knames[t.klookup[key]]
    close = closest(key, t.klookup, n=1)
    hint = f" (did you mean {quoted(t.knames[close[0]])}?)" if close else ""
    raise InvalidAction(f"no Kingdom card is called {quoted(text.strip())}{hint}")


def _land_name(t: MeikyuTables, text: str) -> str:
    key = fold(_strip_quotes(text))
    if key in t.llookup:
        return t.lnames[t.llookup[key]]
    close = closest(key, t.llookup, n=1)
    hint = f" (did you mean {quoted(t.lnames[close[0]])}?)" if close else ""
    raise InvalidAction(f"no Meikyu card (room or land) is called {quoted(text.strip())}{hint}")


def _card_list(t: MeikyuTables, text: str) -> tuple[tuple[str, ...], str | None]:
    cards: list[str] = []
    lab: str | None = None
    for raw in text.split(","):
        token = raw.strip()
        if not token:
            continue
        count = 1
        head, _, rest = token.partition(" ")
        digits = head.rstrip("x×")
        if rest and digits.isdecimal():
            number = whole_number(digits, len(t.knames))
            if number is None:
                raise InvalidAction(f"{quoted(head)} copies: the pool has {len(t.knames)} Kingdom cards")
            count = number
            token = rest.strip()
        if fold(token).endswith(" as character"):
            if lab is not None or count != 1:
                raise InvalidAction("only one item can be played as a character (the Laboratory's effect)")
            lab = _kingdom_name(t, token[: -len(" as character")])
            continue
        cards.extend([_kingdom_name(t, token)] * count)
    order = {name: i for i, name in enumerate(t.knames[k] for k in t.alpha)}
    return tuple(sorted(cards, key=order.__getitem__)), lab


def _seat(text: str, players: int) -> int:
    token = text.strip().upper()
    if not (token.startswith("P") and token[1:].isdecimal()):
        raise InvalidAction(f"a player is written P1 … P{players}, not {quoted(text.strip())}")
    number = whole_number(token[1:], players)
    if not number:
        raise InvalidAction(f"there is no player {quoted(token)} in a {players}-player game")
    return number - 1


def parse_action(rules: MeikyuRules, text: str) -> MeikyuAction:
    """The action written as ``text`` (see the module docstring); raises :class:`InvalidAction`."""
    t = rules.tables
    raw = " ".join(check_notation(text).split())
    low = raw.lower()
    head, _, rest = raw.partition(" ")
    verb = head.lower()
    if low in WORDS:
        return WORDS[low]
    if verb == "roll":
        if rest.strip() in ("1", "2", "3", "4", "5", "6"):
            return t.roll_act[int(rest)]  # type: ignore[return-value]
        raise InvalidAction(f"a die shows 1 to 6: {quoted(text)}")
    if verb == "draw" and rest:
        return t.draw_act[t.kindex[_kingdom_name(t, rest)]]
    if verb == "reveal" and rest:
        return t.reveal_act[t.lindex[_land_name(t, rest)]]
    if verb in ("quest", "develop"):
        room, sep, cards = _split_with(rest)
        if not sep or not room:
            raise InvalidAction(
                f"write: {verb} <{'room' if verb == 'quest' else 'land'}> with <cards>, not {quoted(text)}"
            )
        names, lab = _card_list(t, cards)
        if verb == "quest":
            return Quest(_land_name(t, room), names, lab)
        if lab is not None:
            raise InvalidAction("a development spends character cards only (no item as character)")
        return Develop(_land_name(t, room), names)
    if verb == "attack":
        seat_text, _, more = rest.partition(" ")
        target = _seat(seat_text, rules.players)
        land_text, sep, tail = _split_with(" " + more)
        cards_text, by_sep, by = tail.rpartition(" by ")
        if not sep or not by_sep:
            raise InvalidAction(
                f"write: attack P2 <land> with <cards> by Gotcha! (or by Council Chamber), not {quoted(text)}"
            )
        names, lab = _card_list(t, cards_text)
        by_name = COUNCIL if fold(by) == fold(COUNCIL) else _kingdom_name(t, by)
        land = _land_name(t, land_text) if land_text.strip() else None
        return Attack(target, land, names, lab, by_name)
    if verb == "defend":
        if not rest:
            return Defend()
        if not rest.lower().startswith("with "):
            raise InvalidAction(f"write: defend, or defend with <cards>, not {quoted(text)}")
        names, lab = _card_list(t, rest[5:])
        return Defend(names, lab)
    if low.startswith("mixed area "):
        return MixedArea(_seat(raw[len("mixed area ") :], rules.players))
    if low.startswith("discard land ") and len(raw) > len("discard land "):
        return t.discard_land_act[t.lindex[_land_name(t, raw[len("discard land ") :])]]
    if verb == "give" and rest:
        return t.give_act[t.lindex[_land_name(t, rest)]]
    if verb in CARD_VERBS and rest:
        k = t.kindex[_kingdom_name(t, rest)]
        return {"keep": t.keep_act, "return": t.return_act, "discard": t.discard_act}[verb][k]
    raise InvalidAction(
        f"not a Meikyu action: {quoted(text)} (e.g. quest <room> with <cards>, develop <land> with <characters>, "
        "attack P2 <land> with <cards> by Gotcha!, resupply, map, defend with <cards>, pass; type help)"
    )


def _split_with(text: str) -> tuple[str, bool, str]:
    """``"<left> with <right>"`` → (left, True, right); the first `` with `` splits."""
    low = text.lower()
    i = low.find(" with ")
    if i < 0:
        if low.startswith("with "):
            return "", True, text[5:]
        return text.strip(), False, ""
    return text[:i].strip(), True, text[i + 6 :]
