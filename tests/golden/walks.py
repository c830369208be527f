"""Fixed walks through each game, for the golden files (the spirit of python-chess's perft suites).

A walk starts from ``rules.new_initial_state(seed)`` and, until the game ends or ``steps`` player
decisions are made, applies the state's own sampled chance outcomes and, at each decision, the
legal action at index ``rng.randrange(len(legal))`` of ``random.Random(seed)``. It records the
number of legal actions at every decision and the final outcome. Any change to what is legal, in
what order, or how a game ends changes the file, visibly, in the diff.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from cardbase.games.base import CHANCE, Rules

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

# Per game: (name, options, seed, steps). Méa's decks are example deck files; Meikyu's pool is the
# shipped catalog completed by the ``default`` assumption profile (assumed values, not published).
CASES: dict[str, list[tuple[str, dict[str, Any], int, int]]] = {
    "meio": [
        ("4 players", {"players": 4}, 1, 400),
        ("3 players, ace low", {"players": 3, "ace_high": False}, 2, 400),
        ("2 players, hearts broken", {"players": 2, "hearts_anytime": False}, 3, 400),
        ("4 players, 1 round, hearts broken", {"players": 4, "rounds": 1, "hearts_anytime": False}, 4, 400),
    ],
    "mea": [
        ("example decks", {}, 1, 300),
        ("example decks, seed 5", {}, 5, 300),
        ("example decks, seed 6", {}, 6, 300),
        ("diagonal, attack all", {"adjacency": "diagonal", "attack_rule": "all"}, 2, 300),
        ("sides, first moves in", {"layout": "sides", "move_in": "first"}, 3, 300),
        (
            "turn-start elimination, mana after flip, 40 turns",
            {"elimination": "turn-start", "mana_count": "after-flip", "max_turns": 40},
            4,
            300,
        ),
    ],
    "meikyu": [
        ("2 players", {"players": 2}, 1, 300),
        ("3 players, farm points", {"players": 3, "farm": "points"}, 2, 300),
        ("4 players, defender picks", {"players": 4, "aggression_target": "defender"}, 3, 300),
        ("5 players, map room discarded", {"players": 5, "map_room": "discarded"}, 4, 300),
    ],
}
MEA_DECKS = ("mea-goblin-rush.txt", "mea-tile-control.txt")


@cache
def _mea_decks() -> tuple[Any, Any]:
    from cardbase.catalog.loader import game_cards
    from cardbase.games.mea.rules import MeaDeck

    cards = {c.name: c for c in game_cards("mea")}
    decks = []
    for filename in MEA_DECKS:
        entries = []
        for line in (REPO / "examples" / "decks" / filename).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#") or ":" in line:
                continue
            count, name = line.split(" ", 1)
            entries.append((cards[name], int(count)))
        decks.append(MeaDeck(filename, tuple(entries)))
    return decks[0], decks[1]


def rules_of(game: str, options: dict[str, Any]) -> Rules:
    if game == "meio":
        from cardbase.games.meio.engine import MeioRules

        return MeioRules(**options)
    if game == "mea":
        from cardbase.games.mea.rules import MeaRules

        return MeaRules(decks=_mea_decks(), **options)
    from cardbase.catalog.meikyu_profiles import shipped_pool
    from cardbase.games.meikyu.engine import MeikyuRules

    return MeikyuRules(shipped_pool("default"), **options)


def walk(rules: Rules, seed: int, steps: int) -> dict[str, Any]:
    """The walk's record: legal-action counts per decision, chance actions, the outcome (or None)."""
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    counts: list[int] = []
    chance = 0
    while len(counts) < steps:
        p = state.current_player
        if p == CHANCE:
            state.apply(state.sample_chance())
            chance += 1
        elif p >= 0:
            legal = state.legal_actions()
            counts.append(len(legal))
            state.apply(legal[rng.randrange(len(legal))])
        else:
            break
        # (the walk uses apply, not apply_unchecked: every chosen action is checked too)
    outcome = state.outcome()
    return {
        "decisions": len(counts),
        "chance_actions": chance,
        "legal_counts": counts,
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def path_of(game: str) -> Path:
    return HERE / f"{game}.json"


def records(game: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "options": options, "seed": seed, "steps": steps, **walk(rules_of(game, options), seed, steps)}
        for name, options, seed, steps in CASES[game]
    ]


def dump(items: list[dict[str, Any]]) -> str:
    """One case per block, the counts on one line, so a diff shows which case and where."""
    blocks = []
    for item in items:
        lines = [f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in item.items()]
        blocks.append("  {\n" + ",\n".join(lines) + "\n  }")
    return "[\n" + ",\n".join(blocks) + "\n]\n"
