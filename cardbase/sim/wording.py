"""Rules options in words, for reports: ``3 rounds, ace high, hearts may be led at any time``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardbase.errors import counted, plural
from cardbase.games.base import option_words

Phrase = Callable[[Any], str]

_MEIO: dict[str, Phrase] = {
    "rounds": lambda v: counted(v, "round"),
    "ace_high": lambda v: "ace high" if v else "ace low",
    "hearts_anytime": lambda v: (
        "hearts may be led at any time" if v else "hearts may be led once a heart has been played in the round"
    ),
    "first_player": lambda v: f"P{int(v) + 1} leads the first round",
    "second_half_leader": lambda v: (
        "the winner of the seventh trick leads the eighth"
        if v == "winner"
        else "the round's starting player leads the eighth trick"
    ),
}
_MEIKYU: dict[str, Phrase] = {
    "farm": lambda v: "the Farm adds a point" if v == "points" else "the Farm raises the land limit to 6",
    "aggression_target": lambda v: (
        "the attacker names the land at stake" if v == "attacker" else "a beaten defender chooses the land to give"
    ),
    "map_room": lambda v: "the Map's extra room stays face up" if v == "stays" else "the Map's extra room is discarded",
    "refugee": lambda v: "a Refugee is not a land" if v == "apart" else "a Refugee counts as a land",
    "casino": lambda v: (
        "the Casino counts the final 6 of a roll" if v == "final" else "the Casino counts every 6 rolled"
    ),
    "grimoire": lambda v: "one Grimoire per character" if v == "one" else "Grimoires may stack on one character",
    "sword": lambda v: "Swords may stack on one character" if v == "stack" else "one Sword per character",
    "fortress": lambda v: (
        "the Fortress counts in quests" if v == "quests" else "the Fortress counts in quests and aggressions"
    ),
    "open_draw": lambda v: (
        "an OPEN card drawn is the draw" if v == "counts" else "an OPEN card drawn is replaced by another draw"
    ),
    "castle_tsunami": lambda v: (
        "a Tsunami may pass the Castle Tower" if v == "passes" else "a Tsunami never passes the Castle Tower"
    ),
    "tsunami_landless": lambda v: (
        "a player without lands at a Tsunami passes nothing"
        if v == "none"
        else "a player without lands at a Tsunami may pass a land received"
    ),
    "tsunami_pass": lambda v: (
        "a Tsunami passes a land held when it was played"
        if v == "held"
        else "a Tsunami passes any land held at one's turn to pass, one received included"
    ),
    "amulet_ask": lambda v: (
        "only Amulet holders are asked after a die" if v == "holders" else "every player is asked after a die"
    ),
    "amulet_first_roll": lambda v: (
        "no Amulet on the first-player roll" if v == "no" else "an Amulet may reroll a first-player roll"
    ),
    "bar": lambda v: "a developed Bar helps its owner" if v == "owner" else "a developed Bar helps every player",
    "bar_zero": lambda v: (
        "the Bar lifts characters printed with 0 swords"
        if v == "printed"
        else "the Bar lifts characters left at 0 swords after their items"
    ),
    "harem": lambda v: "a developed Harem helps its owner" if v == "owner" else "a developed Harem helps every player",
    "goal_check": lambda v: (
        "the goal is checked at the end of each turn" if v == "end" else "reaching the goal during a turn ends the game"
    ),
    "refugee_order": lambda v: (
        "the turn's player orders a Refugee's discards" if v == "turn" else "a Refugee's drawer orders its discards"
    ),
    "mixed_area": lambda v: (
        "the Mixed Area is played before the action"
        if v == "before"
        else "the Mixed Area may be played before or after the action"
    ),
    "sixth_land": lambda v: (
        "a sixth land means discarding one held before it"
        if v == "held"
        else "a sixth land means discarding any of the six, the new one included"
    ),
    "redeal": lambda v: (
        "hands dealt with an OPEN card are dealt anew one at a time"
        if v == "each"
        else "hands dealt with an OPEN card all go back before any is dealt anew"
    ),
    "goal": lambda v: f"first to {counted(v, 'point')} wins",
    "turn_limit": lambda v: f"stops after {v:,} {plural(v, 'turn')} (a safeguard, not a rule)",
}
_PHRASES: dict[str, dict[str, Phrase]] = {"meio": _MEIO, "meikyu": _MEIKYU}
_LEFT_OUT = {"players", "pool", "decks"}


def rules_in_words(game_id: str, options: Mapping[str, Any]) -> str:
    """The options of a game's rules as one sentence a player reads; an option without a phrase
    reads ``name value`` (``tiles per colour 9``), never ``name=True``."""
    phrases = _PHRASES.get(game_id, {})
    parts = []
    for name, value in options.items():
        if name in _LEFT_OUT:
            continue
        phrase = phrases.get(name)
        if phrase is not None:
            parts.append(phrase(value))
        elif isinstance(value, bool):
            parts.append(option_words(name) if value else f"no {option_words(name)}")
        else:
            parts.append(f"{option_words(name)} {value}")
    return ", ".join(parts)
