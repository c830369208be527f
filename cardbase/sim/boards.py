"""Boards as data: what one seat sees of a game, and its legal actions, as JSON-able dicts for
the web's game boards (``/play``, ``/replay``).

- :func:`board_view` is built only from one seat's observation (``state.observation(seat)``),
  so it holds nothing that seat may not see.
- :func:`all_seeing_view` is the same shape built from the whole state: every hand, the decks,
  piles and cards set aside. Only for a finished game or a full record.
- :func:`legal_view` lists the legal actions with what a board needs to click them: ``id`` (the
  index in ``legal_actions()``), ``text``, ``kind`` (the first word) and structured fields (Méa:
  ``card``, ``from``, ``to``, ``tile``, ``refs``; Meio: ``card``, ``keep``, ``aside``; Meikyu:
  ``room``, ``land``, ``cards``, ``total``). ``src``/``dst`` name what a click selects first
  (cards, monsters) and what it then lands on (a tile, a monster, a card), as the board's keys
  (``card:NAME``, ``mon:REF``, ``tile:b2``).

Every view has ``game``, ``you`` (the seat, or ``None`` for a spectator's or the all-seeing
view), ``current_player``, ``status`` (one line), ``turn`` (a number a replay can jump to, with
``turn_label``), ``players`` (one entry per seat; ``hand`` is ``None`` where hidden) and, once
the game is over, ``outcome``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from cardbase.catalog.fields import DEFAULT_SET
from cardbase.db.models import card_id
from cardbase.errors import counted
from cardbase.games.base import State
from cardbase.games.mea import actions as mea_actions
from cardbase.games.mea import board as B
from cardbase.games.mea import engine as mea
from cardbase.games.meikyu import codes as meikyu_codes
from cardbase.games.meikyu import engine as meikyu
from cardbase.games.meikyu import rules as meikyu_rules
from cardbase.games.meikyu import tables as meikyu_tables
from cardbase.games.meikyu.pool import assumed_census, assumed_fields, is_assumed
from cardbase.games.meio import actions as meio_actions
from cardbase.games.meio import engine as meio
from cardbase.games.meio import masks as meio_masks
from cardbase.games.meio.cards import FIRST_HALF, HAND_SIZE
from cardbase.games.meio.rules import rounds_text
from cardbase.sim.mea_view import status_line
from cardbase.sim.meio_view import card_label

BoardView = dict[str, Any]
LegalView = list[dict[str, Any]]


def board_view(game: str, observation: Any) -> BoardView:
    """What ``observation``'s seat sees, as JSON-able data; built from the observation alone."""
    return _builder(game)[0](observation)


def all_seeing_view(state: State) -> BoardView:
    """The whole of ``state`` in the shape of :func:`board_view`: every seat's hand, and the
    hidden piles (for a finished game's replay, or a full record; never for a seat's page)."""
    game = state.rules.game_id
    build, reveal = _builder(game)
    view = build(state.observation(0))
    view["you"] = None
    if "prompt" in view and view["current_player"] >= 0:
        view["prompt"] = build(state.observation(view["current_player"]))["prompt"]
    for seat, entry in enumerate(view["players"]):
        entry["you"] = False
        own = build(state.observation(seat))
        entry.update({k: own["players"][seat][k] for k in ("hand", *PRIVATE[game]) if k in own["players"][seat]})
    view["hidden"] = reveal(state)
    bare_note = getattr(state.rules, "bare_note", None)  # Méa's: the bare-stats cards of every deck
    if bare_note is not None:
        view["notes"] = [n for n in [bare_note()] if n]
    return view


def legal_view(state_or_observation: Any, legal_actions: Sequence[Any]) -> LegalView:
    """The legal actions as data: ``{"id", "text", "kind", …}`` in the order of ``legal_actions``."""
    obs = state_or_observation
    if isinstance(obs, State):
        if obs.current_player < 0:
            return []
        obs = obs.observation(obs.current_player)
    game = obs.rules.game_id
    describe = _LEGAL[game](obs)
    out = []
    for i, action in enumerate(legal_actions):
        text = str(action)
        entry: dict[str, Any] = {"id": i, "text": text, "kind": text.split(" ", 1)[0]}
        entry.update(describe(action))
        out.append(entry)
    return out


BOARD_BUTTON = "button"
"""A legal action a seat's board shows as a button of its own (works without script: Méa's draws,
Meio's playable cards, Meikyu's plain actions)."""
BOARD_CLICK = "click"
"""A legal action a seat's board builds from clicks, with its script (boards.js): Méa's moves, summons
and attacks, Meio's split, Meikyu's quests, developments, aggressions and defences."""
_MEIKYU_COMPOSED = ("quest", "develop", "attack", "defend")


def board_offers(view: BoardView, legal: LegalView) -> dict[int, str]:
    """How the live board of ``view``'s seat offers each of its ``legal`` actions (``legal_view``), by id:
    :data:`BOARD_BUTTON` or :data:`BOARD_CLICK`; an action missing is not on the board. What the board
    templates (``web/templates/play/_board_*.html``) draw: the seat's page lists only the rest, and the
    clicked ones for a page without script."""
    game, me = view.get("game"), view.get("you")
    mine = me is not None and view.get("current_player") == me
    out: dict[int, str] = {}
    for a in legal:
        kind, picked = a["kind"], bool(a.get("src") or a.get("dst"))
        offer: str | None = None
        if game == "mea":
            offer = BOARD_CLICK if picked else BOARD_BUTTON
        elif game == "meio":
            if view.get("phase") == "split" and mine:
                offer = BOARD_CLICK if kind == "split" else None
            elif kind == "play":
                offer = BOARD_BUTTON if a.get("card") in {c.get("code") for c in view.get("hand") or ()} else None
            elif kind != "split" and not picked:
                offer = BOARD_BUTTON
        elif game == "meikyu":
            if kind in _MEIKYU_COMPOSED:
                offer = BOARD_CLICK if mine and view.get("decision") in ("action", "defend") else None
            elif not picked:
                offer = BOARD_BUTTON
        if offer is not None:
            out[a["id"]] = offer
    return out


def turn_of(state: State) -> dict[str, Any]:
    """``{"turn", "turn_label"}`` of ``state``, as its board views give them (a replay jumps to a
    turn), read from the state's public counters without building a view."""
    game = state.rules.game_id
    if isinstance(state, mea.MeaState):
        return _turn(game, state.rules, state.turn, 0, state.turn_label())
    if isinstance(state, meio.MeioState):
        return _turn(game, state.rules, state.round, len(state.tricks()))
    assert isinstance(state, meikyu.MeikyuState)
    return _turn(game, state.rules, state.turns, 0)


def _turn(game: str, rules: Any, turn: int, tricks: int, label: str = "") -> dict[str, Any]:
    """A number that grows along a game and its label: Méa's turn (both players' together, 0
    before the first; ``label`` as the player counts it, ``P2's turn 3``); Meio's trick of the round
    (``turn`` the round from 0, ``tricks`` done in it); Meikyu's turn (``turn`` the turns finished)."""
    if game == "meio":
        round_number = min(turn, rules.rounds - 1)
        trick = min(tricks + 1, HAND_SIZE)
        return {"turn": round_number * HAND_SIZE + trick, "turn_label": f"round {round_number + 1}, trick {trick}"}
    if game == "meikyu":
        return {"turn": turn + 1, "turn_label": f"turn {turn + 1}"}
    return {"turn": turn, "turn_label": label if turn else "before the first turn"}


def seat_label(seat: int) -> str:
    return f"P{seat + 1}"


def _seat_of(observation: Any) -> int | None:
    """The seat an observation is for; ``None`` for a spectator's (a negative ``player``)."""
    player: int = observation.player
    return player if player >= 0 else None


def _card(game: str, set_code: str | None, name: str, *, catalogued: bool = True, demo: bool = False) -> dict[str, Any]:
    """A card as a board shows it: its name, its catalog id (for its face; ``None`` when the
    game made it up, e.g. an assumed unnamed room) and whether it is a demo card."""
    ident = card_id(game, set_code or DEFAULT_SET[game], name) if catalogued else None
    return {"name": name, "id": ident, "demo": demo}


# --- Méa -----------------------------------------------------------------------------------------

MEA_COLOURS = ("yellow", "blue")


def _mea_cards(rules: Any) -> dict[str, Any]:
    """Card name → the card as the game plays it (its values, text, set, demo or not)."""
    cards: dict[str, Any] = {}
    for card in rules.tables().cards:
        if card.name not in cards:
            cards[card.name] = card
    return cards


def _mea_card(card: Any) -> dict[str, Any]:
    out = _card("mea", card.set, card.name, demo=card.is_demo)
    out.update(type=card.type.value, cost=card.cost, text=card.text)
    if card.type.value == "monster":
        out.update(attack=card.attack, defence=card.defence)
    return out


def _mea_view(obs: Any) -> BoardView:

    pub = obs.public()
    view = obs.view
    me = _seat_of(obs)
    cards = _mea_cards(obs.rules)
    on_tile: dict[str, list[dict[str, Any]]] = {}
    for m in pub["monsters"]:
        card = _mea_card(cards[m["name"]])
        mine = m["controller"] == me
        entry = {
            **m,
            "key": f"mon:{m['ref']}",
            "card": card,
            "base": [card.get("attack"), card.get("defence")],
            "mine": mine,
            "colour": MEA_COLOURS[m["controller"]],
            # Whether it has acted this turn (moved or attacked): only the active player's monsters act.
            "spent": m["controller"] == pub["active"] and not m["can_attack"] and not m["summoned_this_turn"],
            # The engine clears the flag when its controller's next turn begins; in the other
            # player's turn a monster summoned in the turn before was not summoned *this* turn.
            "summoned_this_turn": m["summoned_this_turn"] and m["controller"] == pub["active"],
        }
        on_tile.setdefault(m["tile"], []).append(entry)
    tiles = view.tiles()
    # Empty places a pending choice may put a new tile on: drawn too, so they can be clicked.
    choice = pub["choice"]
    spots = {B.parse(o) for o in (choice["options"] if choice else ()) if isinstance(o, str)} - set(tiles)
    rows: list[dict[str, Any]] = []
    columns: list[str] = []
    if tiles:
        xs = [B.xy(q)[0] for q in (*tiles, *spots)]
        ys = [B.xy(q)[1] for q in (*tiles, *spots)]
        columns = [B.name(B.pos(x, 0))[:-1] for x in range(min(xs), max(xs) + 1)]
        for y in range(max(ys), min(ys) - 1, -1):
            cells = []
            for x in range(min(xs), max(xs) + 1):
                q = B.pos(x, y)
                name = B.name(q)
                owner = tiles.get(q)
                cells.append(
                    {
                        "tile": name,
                        "key": f"tile:{name}",
                        "owner": owner,
                        "colour": None if owner is None else MEA_COLOURS[owner],
                        "spot": q in spots,
                        "monsters": on_tile.get(name, []),
                    }
                )
            rows.append({"label": str(y + 1), "cells": cells})
    active_mana = pub["phase"] in ("main", "choice", "flip")
    # why each card of the seat's hand cannot be played now (the words a refusal of it gets), from
    # what the seat knows; greyed on the board, said under the hand's heading and on the card
    held = obs.held_back() if me is not None and pub["current_player"] >= 0 else ()
    hand = [{**_mea_card(cards[n]), "held_back": held[k] if held else None} for k, n in enumerate(pub["hand"])]
    players = []
    for seat in (0, 1):
        players.append(
            {
                "seat": seat,
                "name": seat_label(seat),
                "colour": MEA_COLOURS[seat],
                "you": seat == me,
                "tiles": view.tile_count(seat),
                "deck": pub["deck_sizes"][seat],
                "hand_size": pub["hand_sizes"][seat],
                "hand": hand if seat == me else None,
                "mana": pub["mana"] if active_mana and seat == pub["active"] else None,
                "projected_mana": pub["projected_mana"][seat],
                "opening": pub["openings"][seat],
            }
        )
    outcome = view.outcome()
    return {
        "game": "mea",
        "you": me,
        "current_player": pub["current_player"],
        "phase": pub["phase"],
        "active": pub["active"],
        **_turn("mea", obs.rules, pub["turn"], 0, view.turn_label()),
        "status": status_line(obs),
        "columns": columns,
        "rows": rows,
        "players": players,
        "hand": players[me]["hand"] if me is not None else None,
        "held_back": "; ".join(dict.fromkeys(r for r in held if r)) or None,
        "out_of_play": [_mea_card(cards[n]) for n in pub["out_of_play"]],
        "choice": pub["choice"],
        "queue": pub["queue"],
        "outcome": outcome.to_dict() if outcome else None,
        "demo_note": obs.rules.demo_note(),
        # a seat's view names the bare-stats cards of its own deck only (a spectator's: none)
        "notes": [n for n in [obs.rules.bare_note([] if me is None else [me])] if n],
    }


def _mea_hidden(state: Any) -> dict[str, Any]:
    cards = _mea_cards(state.rules)
    return {
        "decks": [[_mea_card(cards[state.card(i).name]) for i in state.deck(seat)] for seat in (0, 1)],
    }


def _mea_legal(obs: Any) -> Callable[[Any], dict[str, Any]]:

    def tile(q: int) -> str | None:
        return None if q == mea_actions.NONE_POS else B.name(q)

    def describe(action: Any) -> dict[str, Any]:
        if isinstance(action, mea_actions.Draw):
            return {"k": action.k}
        if isinstance(action, mea_actions.Summon):
            t = tile(action.pos)
            return {"card": action.card, "tile": t, "to": t, "src": [f"card:{action.card}"], "dst": f"tile:{t}"}
        if isinstance(action, mea_actions.Play):
            return {"card": action.card, "src": [f"card:{action.card}"], "dst": None}
        if isinstance(action, mea_actions.Move):
            ref = str(action.ref)
            t = tile(action.dst)
            return {"ref": ref, "card": action.ref.name, "from": tile(action.ref.pos), "to": t,
                    "src": [f"mon:{ref}"], "dst": f"tile:{t}"}  # fmt: skip
        if isinstance(action, mea_actions.Attack):
            refs = [str(r) for r in action.refs]
            t = tile(action.target)
            return {"refs": refs, "from": [tile(r.pos) for r in action.refs], "tile": t, "to": t,
                    "src": [f"mon:{r}" for r in refs], "dst": f"tile:{t}"}  # fmt: skip
        if isinstance(action, mea_actions.Flip | mea_actions.Obliterate):
            t = tile(action.pos)
            return {"tile": t, "dst": f"tile:{t}" if t else None}
        if isinstance(action, mea_actions.Choose):
            target = action.target
            if isinstance(target, int):
                return {"tile": tile(target), "dst": f"tile:{tile(target)}"}
            return {"ref": str(target), "card": target.name, "tile": tile(target.pos), "dst": f"mon:{target}"}
        return {}

    return describe


# --- Meio ----------------------------------------------------------------------------------------

MEIO_RED = frozenset("HD")


def _meio_card(c: int) -> dict[str, Any]:

    card = meio_masks.CARDS[c]
    out = _card("meio", None, card.name)
    out.update(code=card.notation, label=card_label(card), suit=card.suit.value, red=card.suit.value in MEIO_RED)
    out["key"] = f"card:{card.notation}"
    return out


def _meio_cards(rules: Any, mask: int) -> list[dict[str, Any]]:

    return [_meio_card(c) for c in sorted(meio_masks.indices_of(mask), key=rules.sort_key)]


def _meio_view(obs: Any) -> BoardView:

    rules = obs.rules
    n = rules.players
    me = _seat_of(obs)
    over = obs.phase == "over"
    players = []
    for seat in range(n):
        players.append(
            {
                "seat": seat,
                "name": seat_label(seat),
                "you": seat == me,
                "hand_size": obs.hand_sizes[seat],
                "aside_size": obs.aside_sizes[seat],
                "split_done": obs.split_done[seat],
                "horizontal": obs.horizontal[seat],
                "vertical": obs.vertical[seat],
                "total": obs.totals[seat],
                "round_scores": [r[seat] for r in obs.round_scores],
                "hand": _meio_cards(rules, obs.hand) if seat == me else None,
                "aside": _meio_cards(rules, obs.aside) if seat == me else None,
            }
        )
    trick = [{"seat": (obs.leader + i) % n, "card": _meio_card(c)} for i, c in enumerate(obs.trick)]
    last = None
    if obs.tricks:
        leader, cards, winner = obs.tricks[-1]
        last = {
            "number": len(obs.tricks),
            "cards": [{"seat": (leader + i) % n, "card": _meio_card(c)} for i, c in enumerate(cards)],
            "winner": winner,
        }
    tricks_done = len(obs.tricks)
    half = 1 if tricks_done < FIRST_HALF else 2
    if over:
        status = f"Meio · game over after {rounds_text(rules.rounds)} (lowest total wins)"
    else:
        what = {
            "deal": "the cards are to be dealt",
            "split": "each player keeps 7 and sets 6 aside",
            "play": f"trick {tricks_done + 1} of {HAND_SIZE}, "
            + ("first half (tricks horizontal)" if half == 1 else "second half (tricks vertical)"),
        }[obs.phase]
        status = f"Meio · round {obs.round + 1} of {rules.rounds} · {what}"
    round_number = min(obs.round, rules.rounds - 1)
    outcome = obs.outcome()
    return {
        "game": "meio",
        "you": me,
        "current_player": obs.current_player,
        "phase": obs.phase,
        "round": round_number + 1,
        "rounds": rules.rounds,
        "starts": obs.start,
        "leader": obs.leader,
        "half": half,
        **_turn("meio", rules, obs.round, tricks_done),
        "status": status,
        "players": players,
        "hand": players[me]["hand"] if me is not None else None,
        "aside": players[me]["aside"] if me is not None else None,
        "trick": trick,
        "last_trick": last,
        "tricks_done": tricks_done,
        "held_back": obs.held_back() if me is not None else None,
        "rules": {k: v for k, v in rules.to_options().items()},
        "outcome": outcome.to_dict() if outcome else None,
    }


def _meio_hidden(state: Any) -> dict[str, Any]:

    return {"leftover": _meio_cards(state.rules, meio_masks.mask_of(state.leftover()))}


def _meio_legal(obs: Any) -> Callable[[Any], dict[str, Any]]:

    def describe(action: Any) -> dict[str, Any]:
        if isinstance(action, meio_actions.Play):
            code = meio_masks.CARDS[action].notation
            return {"card": code, "dst": f"card:{code}"}
        if isinstance(action, meio_actions.Split):
            return {
                "keep": [c.notation for c in meio_masks.cards_of(action.keep)],
                "aside": [c.notation for c in meio_masks.cards_of(action.aside)],
            }
        return {}

    return describe


# --- Meikyu --------------------------------------------------------------------------------------


def _meikyu_kingdom(rules: Any, k: int, count: int | None = None) -> dict[str, Any]:
    kind = rules.pool.kingdom[k]
    assumed = assumed_fields(rules.pool, kind.name, ("bravery", "wits"))
    out = _card("meikyu", None, kind.name, catalogued="card" not in assumed)
    out.update(type=kind.type, effect=kind.effect, key=f"card:{kind.name}", assumed=assumed)
    if kind.type == "character":
        out.update(bravery=kind.bravery, wits=kind.wits)
    if count is not None:
        out["count"] = count
    return out


def _meikyu_land(rules: Any, land: int, *, developed: bool | None = None) -> dict[str, Any]:
    kind = rules.pool.lands[land]
    assumed = assumed_fields(rules.pool, kind.name, ("level", "points", "developed_points"))
    out = _card("meikyu", None, kind.name, catalogued="card" not in assumed)
    out.update(
        room=kind.name,
        land=kind.land_name or kind.name,
        level=kind.level,
        points=kind.points,
        developed_points=kind.developed_points,
        effect=kind.effect,
        assumed=assumed,
    )
    if developed is not None:
        out["developed"] = developed
        out["worth"] = kind.developed_points if developed else kind.points
    return out


def _meikyu_under_way(obs: Any) -> dict[str, Any] | None:
    """The action under way (quest, development, aggression) with its totals and dice, by name."""
    ctx = obs.ctx
    if ctx is None or ctx.get("kind") not in ("quest", "develop", "attack"):
        return None
    rules = obs.rules
    kind = ctx["kind"]
    out: dict[str, Any] = {"kind": kind, "player": ctx["player"], "success": ctx.get("success")}
    if kind == "quest":
        die = ctx["dice"][0] or None
        out.update(
            room=_meikyu_land(rules, ctx["room"]),
            level=ctx["level"],
            swords=ctx["swords"],
            die=die,
            total=ctx["swords"] + die if die else None,
        )
    elif kind == "develop":
        out.update(land=_meikyu_land(rules, ctx["land"]), seals=ctx["wits"], cost=ctx["cost"])
    else:
        a, d = ctx["dice"]
        out.update(
            attacker=ctx["attacker"],
            defender=ctx["defender"],
            land=_meikyu_land(rules, ctx["land"]) if ctx["land"] >= 0 else None,
            by=ctx["by"],
            swords=ctx["swords"],
            defence=ctx["defence"],
            die=a or None,
            defence_die=d or None,
            total=ctx["swords"] + a if a else None,
            defence_total=ctx["defence"] + d if d else None,
        )
    return out


def _meikyu_view(obs: Any) -> BoardView:
    rules = obs.rules
    t = rules.tables
    n = rules.players
    me = _seat_of(obs)
    mapped = set(obs.mapped) if obs.turn_player == me else set()
    rooms = []
    for i, r in enumerate(obs.rooms, start=1):
        room = _meikyu_land(rules, r)
        room.update(number=i, level_now=t.level[r] - (2 if r in mapped else 0), key=f"room:{t.lnames[r]}")
        rooms.append(room)
    players = []
    for seat in range(n):
        lands = []
        for e in obs.lands[seat]:
            land = _meikyu_land(rules, e >> 1, developed=bool(e & 1))
            land["key"] = f"land:{seat}:{t.lnames[e >> 1]}"
            lands.append(land)
        players.append(
            {
                "seat": seat,
                "name": seat_label(seat),
                "you": seat == me,
                "points": obs.points[seat],
                # the total adds a land's points that the assumption profile gave (shown with a *)
                "points_assumed": any(
                    "card" in x["assumed"] or ("developed_points" if x["developed"] else "points") in x["assumed"]
                    for x in lands
                ),
                "hand_size": obs.hand_sizes[seat],
                "skips": obs.skips[seat],
                "lands": lands,
                "refugees": len(obs.refugees[seat]),
                "hand": [_meikyu_kingdom(rules, k, obs.hand[k]) for k in t.alpha if obs.hand[k]]
                if seat == me
                else None,
                # Cards every player saw go into this hand (the Hospital's return) and still there.
                "shown": [t.knames[k] for k in obs.shown[seat]] if obs.shown else [],
            }
        )
    ctx = obs.ctx or {}
    dice: list[dict[str, Any]] = []
    if "rollers" in ctx:
        dice = [
            {"seat": seat, "value": value or None, "for": ctx["kind"]}
            for seat, value in zip(ctx["rollers"], ctx["dice"], strict=True)
        ]
    amulet = None  # (only to the seat asked: the engine asks a seat that holds an Amulet)
    if obs.decision == "amulet" and obs.args and obs.current_player == me:
        roller, slot, _ = obs.args
        amulet = {"roller": roller, "value": ctx.get("dice", [0, 0])[slot] if ctx else None}
    over = bool(obs.end)
    head = f"turn {obs.turns + 1} · {seat_label(obs.turn_player)}'s turn"
    status = (
        f"Meikyu Kingdom · game over after {counted(obs.turns, 'turn')} ({obs.end})"
        if over
        else f"Meikyu Kingdom · {head}"
    )
    # Discards the player to act must make one after another (a board picks them at once).
    discard = None
    if obs.decision in ("hand limit", "refugee") and obs.current_player == me:
        discard = {"count": obs.discards_to_name(), "why": obs.decision}
    # What the player to act is asked (worded for them), or what they decide (for the others).
    prompt = None if over or obs.current_player < 0 else obs.prompt if obs.current_player == me else obs.decision
    outcome = obs.outcome()
    top = obs.kdiscard[-1] if obs.kdiscard else None
    # Who went first and why, through the first round (a person seated after agents first moves at a
    # later turn): the rulebook's "The player with the highest roll goes first. The play will proceed
    # in a clockwise order." The rolls are the deciding round's: a tie is rolled again by the tied
    # only, so fewer rolls than players means a tie was rolled again.
    seats = len(obs.points)
    first = None
    if obs.first_rolls and obs.turns < seats and (obs.turns or (obs.current_player >= 0 and obs.decision != "amulet")):
        best = max(v for _, v in obs.first_rolls)
        top_seats = [s for s, v in obs.first_rolls if v == best]
        if len(top_seats) == 1:
            first = {
                "seat": top_seats[0],
                "rolls": [{"seat": s, "value": v} for s, v in obs.first_rolls],
                "rerolled": len(obs.first_rolls) < seats,
                "order": [(top_seats[0] + i) % seats for i in range(seats)],
            }
    return {
        "game": "meikyu",
        "you": me,
        "current_player": obs.current_player,
        "turn_player": None if over else obs.turn_player,  # a finished game's turn is no one's
        "decision": obs.decision,
        "prompt": prompt,
        **_turn("meikyu", rules, obs.turns, 0),
        "status": status,
        "goal": rules.goal,
        "rooms": rooms,
        "players": players,
        "hand": players[me]["hand"] if me is not None else None,
        "hand_limit": meikyu_rules.HAND_LIMIT,
        "discard": discard,
        "piles": {
            "kingdom": obs.kpile_size,
            "discards": len(obs.kdiscard),
            "top_discard": _meikyu_kingdom(rules, top) if top is not None else None,
            "meikyu": obs.mpile_size,
            "rooms_discarded": len(obs.mdiscard),
        },
        "in_play": [_meikyu_kingdom(rules, k) for k in obs.inplay],
        "under_way": _meikyu_under_way(obs),
        "dice": dice,
        "amulet": amulet,
        # (who starts: shown until the first turn is over)
        "first_rolls": [{"seat": s, "value": v} for s, v in obs.first_rolls] if not obs.turns else [],
        "first_player": first,
        "archives": [_meikyu_kingdom(rules, k) for k in obs.archives] if obs.archives else None,
        # (how many are assumed, counted as every command counts them, not which: the list names
        # every card of the pool, those in the piles too; each card shown says which are assumed)
        "assumed": str(assumed_census(rules.pool.assumed)) if rules.pool.assumed else None,
        "profile": rules.pool.profile,
        "outcome": outcome.to_dict() if outcome else None,
    }


def _meikyu_hidden(state: Any) -> dict[str, Any]:
    rules = state.rules
    t = rules.tables
    pile = state.kingdom_pile()
    return {
        "kingdom_pile": [_meikyu_kingdom(rules, t.kindex[name], count) for name, count in sorted(pile.items())],
        "meikyu_pile": state.meikyu_pile_size(),
    }


def _meikyu_legal(obs: Any) -> Callable[[Any], dict[str, Any]]:

    rules = obs.rules
    t = rules.tables
    eff, _ = obs.effects(obs.current_player)
    deff = meikyu_rules.shared_developed(rules, [obs.effects(s)[1] for s in range(rules.players)], obs.current_player)
    mapped = set(obs.mapped)

    def guessed(names: tuple[str | None, ...], field: str) -> bool:
        """Whether a value the total reads is the assumption profile's, not the rulebook's."""
        return any(n is not None and is_assumed(rules.pool, n, field) for n in names)

    def swords(cards: tuple[str, ...], lab: str | None, quest: bool) -> int:
        kinds = [t.kindex[c] for c in cards]
        return meikyu_tables.sword_total(t, kinds, -1 if lab is None else t.kindex[lab], eff, deff, quest)

    def describe(action: Any) -> dict[str, Any]:
        if isinstance(action, meikyu.Quest):
            room = t.lindex[action.room]
            level = t.level[room] - (2 if room in mapped else 0)
            total = swords(action.cards, action.lab, True)
            room_name = rules.pool.lands[room].name
            assumed = guessed((*action.cards, action.lab), "bravery") or guessed((room_name,), "level")
            return {"room": action.room, "cards": list(action.cards), "lab": action.lab, "total": total,
                    "level": level, "need": max(1, level - total), "assumed": assumed}  # fmt: skip
        if isinstance(action, meikyu.Develop):
            land = t.lindex[action.land]
            cost = t.level[land] - (1 if deff & meikyu_codes.B_HAREM else 0)
            seals = sum(t.wits[t.kindex[c]] for c in action.cards)
            assumed = guessed(action.cards, "wits") or guessed((rules.pool.lands[land].name,), "level")
            return {"land": action.land, "cards": list(action.cards), "total": seals, "cost": cost, "assumed": assumed}
        if isinstance(action, meikyu.Attack):
            return {"target": action.target, "land": action.land, "cards": list(action.cards), "lab": action.lab,
                    "by": action.by, "total": swords(action.cards, action.lab, False),
                    "assumed": guessed((*action.cards, action.lab), "bravery")}  # fmt: skip
        if isinstance(action, meikyu.Defend):
            return {"cards": list(action.cards), "lab": action.lab, "total": swords(action.cards, action.lab, False),
                    "assumed": guessed((*action.cards, action.lab), "bravery")}  # fmt: skip
        if isinstance(action, meikyu.MixedArea):
            return {"target": action.target}
        if isinstance(action, meikyu.Choose):
            field = "land" if action.verb in ("give", "discard land") else "card"
            return {"verb": action.verb, field: action.name}
        return {}

    return describe


# --- per game --------------------------------------------------------------------------------------

PRIVATE: dict[str, tuple[str, ...]] = {"mea": (), "meio": ("aside",), "meikyu": ()}
"""Besides ``hand``, what a seat's own entry in ``players`` holds that others' do not."""

_BUILDERS: dict[str, tuple[Callable[[Any], BoardView], Callable[[Any], dict[str, Any]]]] = {
    "mea": (_mea_view, _mea_hidden),
    "meio": (_meio_view, _meio_hidden),
    "meikyu": (_meikyu_view, _meikyu_hidden),
}
_LEGAL: dict[str, Callable[[Any], Callable[[Any], dict[str, Any]]]] = {
    "mea": _mea_legal,
    "meio": _meio_legal,
    "meikyu": _meikyu_legal,
}


def _builder(game: str) -> tuple[Callable[[Any], BoardView], Callable[[Any], dict[str, Any]]]:
    try:
        return _BUILDERS[game]
    except KeyError:
        raise ValueError(f"no board for the game {game!r} (known: {', '.join(_BUILDERS)})") from None


def hand_counts(view: BoardView) -> Counter[str]:
    """The names of the cards in ``view``'s own hand, with their copies (for tests and tools)."""
    out: Counter[str] = Counter()
    for card in view.get("hand") or ():
        out[card.get("code") or card["name"]] += card.get("count", 1)
    return out
