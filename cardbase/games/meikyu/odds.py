"""Exact chances of Meikyu's dice: quests and aggressions, with Amulet rerolls.

A quest succeeds when swords + one die ≥ the room's level. An aggression succeeds when
the attacker's swords + die are strictly higher than the defender's swords + die. An
Amulet, played by anyone when a die has just been rolled, has that die rerolled; after
each roll the players are asked in turn order (the player whose turn it is first), as
the engine does. Every chance here assumes both sides play their Amulets as well as
possible, and is an exact :class:`~fractions.Fraction`.

Pure: no I/O. ``float()`` the results for speed where exactness is not needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

SIDES = 6


def die_at_least(need: int) -> Fraction:
    """P(one die ≥ ``need``)."""
    if need <= 1:
        return Fraction(1)
    if need > SIDES:
        return Fraction(0)
    return Fraction(SIDES + 1 - need, SIDES)


@dataclass(frozen=True, slots=True)
class QuestOdds:
    """A quest's total swords, the level to reach, and the chance of success."""

    swords: int
    level: int
    need: int
    """The lowest die that succeeds (≤ 1: always; > 6: never, whatever the rerolls)."""
    chance: Fraction
    without_amulets: Fraction


def quest_swords(
    swords: int,
    *,
    characters: int = 1,
    fortress: bool = False,
    blacksmith: bool = False,
    sword_cards: int = 0,
) -> int:
    """The quest's sword total: the cards' swords, +2 with the Fortress when two or more
    characters go, +1 per Sword card with the Blacksmith."""
    total = swords
    if fortress and characters >= 2:
        total += 2
    if blacksmith:
        total += sword_cards
    return total


def quest_chance(swords: int, level: int, amulets: int = 0, rival_amulets: int = 0) -> Fraction:
    """P(success) of a quest with ``swords`` in total against ``level``.

    ``amulets``: Amulets the quester holds (rerolling a failed die); ``rival_amulets``:
    Amulets other players hold (rerolling a successful die). Rerolls alternate as the
    windows do: after each roll the quester may reroll a failure, then the rivals a success.
    """
    p = die_at_least(level - swords)
    return _quest(p, amulets, rival_amulets, None)


@cache
def _quest(p: Fraction, a: int, r: int, success: bool | None) -> Fraction:
    if success is None:  # roll the die
        return p * _quest(p, a, r, True) + (1 - p) * _quest(p, a, r, False)
    if success:
        return _quest(p, a, r - 1, None) if r > 0 and p < 1 else Fraction(1)
    return _quest(p, a - 1, r, None) if a > 0 and p > 0 else Fraction(0)


def quest_odds(
    swords: int,
    level: int,
    *,
    amulets: int = 0,
    rival_amulets: int = 0,
    characters: int = 1,
    fortress: bool = False,
    blacksmith: bool = False,
    sword_cards: int = 0,
    map_played: bool = False,
) -> QuestOdds:
    """Everything about a quest's chance; ``map_played``: the room came from a Map (level -2)."""
    total = quest_swords(
        swords, characters=characters, fortress=fortress, blacksmith=blacksmith, sword_cards=sword_cards
    )
    target = level - 2 if map_played else level
    return QuestOdds(
        swords=total,
        level=target,
        need=target - total,
        chance=quest_chance(total, target, amulets, rival_amulets),
        without_amulets=quest_chance(total, target),
    )


def attack_chance(attack: int, defence: int, attacker_amulets: int = 0, defender_amulets: int = 0) -> Fraction:
    """P(the aggression succeeds): ``attack`` + die > ``defence`` + die, ties to the defender.

    The attacker rolls first, then the defender; after each roll the attacker, then the
    defender, may play an Amulet on the die just rolled (either die: "that person rerolls").
    Both play their Amulets to the best of their interest (minimax, exact).
    """
    return _attack_window(attack - defence, 1, 0, 0, attacker_amulets, defender_amulets)


_DICE = range(1, SIDES + 1)


@cache
def _attack_window(diff: int, phase: int, d1: int, d2: int, a: int, b: int) -> Fraction:
    """Value (P attacker wins) of the game from the start of a phase (roll then window)."""
    total = Fraction(0)
    for d in _DICE:
        if phase == 1:
            total += _attack_choice(diff, 1, d, 0, a, b)
        else:
            total += _attack_choice(diff, 2, d1, d, a, b)
    return total / SIDES


@cache
def _attack_choice(diff: int, phase: int, d1: int, d2: int, a: int, b: int) -> Fraction:
    """Value after a roll in ``phase``: the attacker may reroll it, then the defender."""

    def reroll(a2: int, b2: int) -> Fraction:
        if phase == 1:
            return _attack_window(diff, 1, 0, 0, a2, b2)
        return _attack_window(diff, 2, d1, 0, a2, b2)

    def go_on() -> Fraction:
        if phase == 1:
            return _attack_window(diff, 2, d1, 0, a, b)
        return Fraction(1) if diff + d1 > d2 else Fraction(0)

    def defender() -> Fraction:
        stay = go_on()
        if b > 0:
            return min(stay, reroll(a, b - 1))
        return stay

    best = defender()
    if a > 0:
        best = max(best, reroll(a - 1, b))
    return best


def attack_chance_float(diff: int) -> float:
    """P(attacker wins) without Amulets, as a float: ``diff`` = attack − defence swords."""
    return _ATTACK_TABLE[max(-6, min(6, diff)) + 6]


_ATTACK_TABLE = tuple(float(sum(1 for x in _DICE for y in _DICE if d + x > y)) / 36 for d in range(-6, 7))


def at_least_float(need: int) -> float:
    """P(one die ≥ ``need``) as a float."""
    if need <= 1:
        return 1.0
    if need > SIDES:
        return 0.0
    return (SIDES + 1 - need) / SIDES
