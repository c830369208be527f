"""``cardbase odds``: exact chances of a game's dice (Meikyu Kingdom's quests and aggressions)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli.common import JsonOption, echo, print_json
from cardbase.errors import counted

app = typer.Typer(
    help="Exact chances of the dice in a game's rules.\n\nExample: cardbase odds meikyu quest --swords 3 --level 7",
    no_args_is_help=True,
)
meikyu_app = typer.Typer(
    help="Meikyu Kingdom: quests, aggressions and developments.\n\n"
    "Example: cardbase odds meikyu attack --swords 4 --defence 2",
    no_args_is_help=True,
)
app.add_typer(meikyu_app, name="meikyu")

AmuletsOption = Annotated[
    int, typer.Option("--amulets", min=0, max=12, help="Amulets you hold: each may reroll a die that fails you.")
]


def _pct(fraction: object) -> str:
    """An exact chance in percent: a chance that is not 0 or 1 never reads 0% or 100% (1/13060694016 is
    0.000000008%, not 0.00%: it can happen)."""
    from cardbase.stats import percent

    return percent(float(fraction))  # type: ignore[arg-type]


@meikyu_app.command()
def quest(
    swords: Annotated[int, typer.Option("--swords", "-s", min=0, max=60, help="Swords of the cards used.")],
    level: Annotated[int, typer.Option("--level", "-l", min=1, max=60, help="The room's quest level.")],
    amulets: AmuletsOption = 0,
    rival_amulets: Annotated[
        int, typer.Option("--rival-amulets", min=0, max=12, help="Amulets other players may use on your success.")
    ] = 0,
    characters: Annotated[int, typer.Option("--characters", min=0, max=20, help="Characters on the quest.")] = 1,
    fortress: Annotated[bool, typer.Option("--fortress", help="You own the Fortress (+2 with 2+ characters).")] = False,
    blacksmith: Annotated[
        bool, typer.Option("--blacksmith", help="You own the Blacksmith (+1 per Sword card).")
    ] = False,
    sword_cards: Annotated[
        int, typer.Option("--sword-cards", min=0, max=20, help="Sword item cards among the cards (for --blacksmith).")
    ] = 0,
    map_played: Annotated[
        bool, typer.Option("--map", help="The room came from your Map this turn (level -2).")
    ] = False,
    json: JsonOption = False,
) -> None:
    """Exact chance that a quest succeeds: swords + one die ≥ the room's level.

    Amulets reroll: yours a failed die, your rivals' a successful one, turn by turn as the rules ask.

    Example: cardbase odds meikyu quest --swords 3 --level 7

    Example: cardbase odds meikyu quest --swords 4 --level 9 --characters 2 --fortress --amulets 1
    """
    from cardbase.games.meikyu.odds import quest_chance, quest_odds

    odds = quest_odds(
        swords,
        level,
        amulets=amulets,
        rival_amulets=rival_amulets,
        characters=characters,
        fortress=fortress,
        blacksmith=blacksmith,
        sword_cards=sword_cards,
        map_played=map_played,
    )
    table = [(a, quest_chance(odds.swords, odds.level, a, rival_amulets)) for a in sorted({0, 1, 2, amulets})]
    if json:
        print_json(
            {
                "swords": odds.swords,
                "level": odds.level,
                "die_needed": max(1, odds.need),
                "possible": odds.need <= 6,
                "chance": str(odds.chance),
                "chance_float": float(odds.chance),
                "without_amulets": str(odds.without_amulets),
                "amulets": amulets,
                "rival_amulets": rival_amulets,
                "by_amulets": {str(a): str(c) for a, c in table},
            }
        )
        return
    bonus = []
    if fortress and characters >= 2:
        bonus.append("+2 Fortress")
    if blacksmith and sword_cards:
        bonus.append(f"+{sword_cards} Blacksmith")
    shown = f"{counted(swords, 'sword')}" + (f" ({', '.join(bonus)}) = {odds.swords}" if bonus else "")
    level_text = f"level {level}" + (f" (Map: {odds.level})" if map_played else "")
    if odds.need <= 1:
        needed = "any die"
    elif odds.need > 6:
        needed = f"a die of {odds.need}: impossible"
    else:
        needed = f"a die of {odds.need} or more"
    echo(f"Quest: {shown} against {level_text}: {needed}.")
    echo(
        f"Chance of success: {odds.chance} = {_pct(odds.chance)}"
        + (
            f" (without Amulets: {odds.without_amulets} = {_pct(odds.without_amulets)})"
            if odds.chance != odds.without_amulets
            else ""
        )
    )
    rivals = f", rivals holding {rival_amulets}" if rival_amulets else ""
    echo(f"By Amulets in your hand{rivals}: " + "; ".join(f"{a}: {c} = {_pct(c)}" for a, c in table))


@meikyu_app.command()
def attack(
    swords: Annotated[int, typer.Option("--swords", "-s", min=0, max=60, help="The attacker's swords.")],
    defence: Annotated[int, typer.Option("--defence", "--defense", "-d", min=0, max=60, help="The defender's swords.")],
    amulets: Annotated[int, typer.Option("--amulets", min=0, max=6, help="Amulets the attacker holds.")] = 0,
    defender_amulets: Annotated[
        int, typer.Option("--defender-amulets", min=0, max=6, help="Amulets the defender holds.")
    ] = 0,
    json: JsonOption = False,
) -> None:
    """Exact chance that an aggression succeeds: the attacker's swords + die beat the defender's
    swords + die (a tie goes to the defender). Both play Amulets as well as they can.

    Example: cardbase odds meikyu attack --swords 4 --defence 2

    Example: cardbase odds meikyu attack --swords 3 --defence 3 --amulets 1 --defender-amulets 1 --json
    """
    from cardbase.games.meikyu.odds import attack_chance

    chance = attack_chance(swords, defence, amulets, defender_amulets)
    plain = attack_chance(swords, defence)
    if json:
        print_json(
            {
                "swords": swords,
                "defence": defence,
                "amulets": amulets,
                "defender_amulets": defender_amulets,
                "chance": str(chance),
                "chance_float": float(chance),
                "without_amulets": str(plain),
            }
        )
        return
    echo(
        f"Aggression: {counted(swords, 'sword')} + die against {counted(defence, 'sword')} + die; ties go to the "
        f"defender."
    )
    extra = f" (without Amulets: {plain} = {_pct(plain)})" if chance != plain else ""
    echo(f"Chance the attacker takes the land: {chance} = {_pct(chance)}{extra}")


@meikyu_app.command()
def develop(
    wits: Annotated[int, typer.Option("--wits", "-w", min=0, max=60, help="Seals of the characters spent.")],
    level: Annotated[int, typer.Option("--level", "-l", min=1, max=60, help="The land's quest level.")],
    harem: Annotated[bool, typer.Option("--harem", help="You own the developed Harem (cost -1).")] = False,
    json: JsonOption = False,
) -> None:
    """Whether a development succeeds: seals ≥ the land's level (no die: certain either way).

    Example: cardbase odds meikyu develop --wits 5 --level 6 --harem
    """
    cost = level - (1 if harem else 0)
    ok = wits >= cost
    if json:
        print_json({"wits": wits, "cost": cost, "chance": "1" if ok else "0", "chance_float": 1.0 if ok else 0.0})
        return
    echo(
        f"Development: {counted(wits, 'seal')} against a cost of {cost}: "
        f"{'succeeds (certain)' if ok else 'fails (certain)'}."
    )
