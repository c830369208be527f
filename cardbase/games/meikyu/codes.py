"""The integers Meikyu's engine runs on: kingdom card types and effects, land effects as the bits
of a per-player mask, what the state waits for (``A_*``: the decision of ``current_player``) and the
steps of the turn machine (``OP_*``).

The state keeps its turn as a stack of frames; a frame is a tuple whose first item is an ``OP_*``
code and whose other items are that step's arguments (``(OP_ROLL, seat, …)``). ``MeikyuState`` runs
the top frame's step (``_OPS[op]``) until one waits for a choice (an ``A_*`` code) or the game ends.
They are plain ints, not ``enum`` members, on purpose: the land bits are tested on every step
(``mask & B_FARM``), which with an ``IntFlag`` builds a flag object (17× the time of the int
operation, measured on Python 3.11), and the step codes index ``_OPS`` on every step, where an
``IntEnum`` goes through ``__index__`` (1.5×). ``DECISIONS`` names each ``A_*``, ``L_EFFECTS`` each
land bit and ``OP_NAMES`` each step, for a reader, a debugger and the observation."""

from __future__ import annotations

# Kingdom card types and effects, as small ints.
CHAR, ITEM, AGGR, OPEN = 0, 1, 2, 3
_TYPE_CODES = {"character": CHAR, "item": ITEM, "aggression": AGGR, "open": OPEN}
X_NONE, X_SWORD, X_GRIMOIRE, X_AMULET, X_MAP, X_GOTCHA, X_REFUGEE, X_STORM, X_TSUNAMI = range(9)
_X_CODES = {
    None: X_NONE,
    "sword": X_SWORD,
    "grimoire": X_GRIMOIRE,
    "amulet": X_AMULET,
    "map": X_MAP,
    "gotcha": X_GOTCHA,
    "refugee": X_REFUGEE,
    "storm": X_STORM,
    "tsunami": X_TSUNAMI,
}
# Land effects, as bits of a per-player mask.
L_EFFECTS = (
    "marketplace",
    "council chamber",
    "casino",
    "blacksmith",
    "bar",
    "mixed area",
    "hospital",
    "farm",
    "laboratory",
    "harem",
    "fortress",
    "tomb",
    "hot springs",
    "archives",
    "castle tower",
    "great excavation",
)
_LBIT = {name: 1 << i for i, name in enumerate(L_EFFECTS)}
B_MARKET, B_COUNCIL, B_CASINO, B_SMITH, B_BAR, B_MIXED, B_HOSPITAL, B_FARM = (_LBIT[n] for n in L_EFFECTS[:8])
B_LAB, B_HAREM, B_FORTRESS, B_TOMB, B_HOT, B_ARCHIVES, B_CASTLE, B_GREAT = (_LBIT[n] for n in L_EFFECTS[8:])

# Card-choice modes.
QUEST, ATTACK, DEFEND, DEVELOP = 0, 1, 2, 3

# What the state is waiting for.
(
    A_NONE,
    A_DRAW,  # chance: a card from the Kingdom pile
    A_REVEAL,  # chance: a room from the Meikyu pile
    A_ROLL,  # chance: a die
    A_MAIN,
    A_TOMB,
    A_KEEP,
    A_DEFEND,
    A_AMULET,
    A_CASINO,
    A_HOSPITAL,
    A_ORDER,
    A_HANDLIMIT,
    A_REFUGEE,
    A_TSUNAMI,
    A_LANDCAP,
    A_HOT,
    A_GIVE,
    A_MIXED,  # mixed_area="any": the Mixed Area after the action
) = range(19)
DECISIONS = {
    A_NONE: "over",
    A_DRAW: "chance",
    A_REVEAL: "chance",
    A_ROLL: "chance",
    A_MAIN: "action",
    A_TOMB: "tomb",
    A_KEEP: "archives",
    A_DEFEND: "defend",
    A_AMULET: "amulet",
    A_CASINO: "casino",
    A_HOSPITAL: "hospital",
    A_ORDER: "discard order",
    A_HANDLIMIT: "hand limit",
    A_REFUGEE: "refugee",
    A_TSUNAMI: "tsunami",
    A_LANDCAP: "land limit",
    A_HOT: "hot springs",
    A_GIVE: "give land",
    A_MIXED: "mixed area",
}
# Where a drawn card goes.
TO_HAND, TO_ARCHIVES, TO_SETUP = 0, 1, 2

# Steps of the turn machine (first item of each stack frame).
(
    OP_SETUP,
    OP_DEALCHECK,
    OP_FIRSTROLL,
    OP_SETUPROLL,
    OP_FIRSTDECIDE,
    OP_TURN,
    OP_CDRAW,
    OP_KEEP,
    OP_OPEN,
    OP_REFDISC,
    OP_REVEAL,
    OP_MAIN,
    OP_ROLL,
    OP_QRESOLVE,
    OP_ARESOLVE,
    OP_AFTER,
    OP_CASINO,
    OP_CAPACITY,
    OP_TSUNAMI,
    OP_ENDTURN,
) = range(20)

OP_NAMES = tuple(
    name.removeprefix("OP_").lower()
    for name in [
        "OP_SETUP",
        "OP_DEALCHECK",
        "OP_FIRSTROLL",
        "OP_SETUPROLL",
        "OP_FIRSTDECIDE",
        "OP_TURN",
        "OP_CDRAW",
        "OP_KEEP",
        "OP_OPEN",
        "OP_REFDISC",
        "OP_REVEAL",
        "OP_MAIN",
        "OP_ROLL",
        "OP_QRESOLVE",
        "OP_ARESOLVE",
        "OP_AFTER",
        "OP_CASINO",
        "OP_CAPACITY",
        "OP_TSUNAMI",
        "OP_ENDTURN",
    ]
)
"""Each step's name by its code (``OP_NAMES[OP_MAIN] == "main"``)."""

# Stack frames without arguments, shared.
F_MAIN, F_AFTER, F_ENDTURN = (OP_MAIN,), (OP_AFTER,), (OP_ENDTURN,)
F_QRESOLVE, F_ARESOLVE = (OP_QRESOLVE,), (OP_ARESOLVE,)

END_POINTS, END_ROOMS, END_LIMIT = "points", "rooms", "turn limit"
_CONTEXT_KINDS = ("quest", "develop", "attack", "resupply", "lost turn")
