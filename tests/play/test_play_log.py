"""The play log says what happened: scenario tests for each kind of line, read from the
human's observations before and after an action (Méa, Meio, Meikyu)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

from cardbase.games.base import CHANCE, State
from cardbase.games.mea import board as B
from cardbase.games.mea.actions import Attack, Draw, Summon
from cardbase.games.mea.codes import BOARD, HAND, OUT
from cardbase.games.mea.rules import MeaDeck, MeaRules
from cardbase.games.meio.engine import MeioRules
from cardbase.sim import mea_view, meio_view
from cardbase.sim.boards import board_view
from cardbase.sim.meikyu import assumptions_line, make_rules, play_effects
from tests.mea.conftest import DEMO
from tests.meikyu.helpers import default_pool


def _steps(state: State, viewer: int, seed: int) -> Iterator[tuple[Any, Any, Any, State, State]]:
    """Every action of a random game: (action, observation before, after, state before, after)."""
    rng = random.Random(seed)
    while not state.is_terminal:
        before_state = state.clone()
        before = state.observation(viewer)
        if state.current_player == CHANCE:
            action = state.sample_chance()
        else:
            legal = list(state.legal_actions())
            action = rng.choice(legal)
        state.apply(action)
        yield action, before, state.observation(viewer), before_state, state


def _find(games: Callable[[int], Iterator[Any]], wanted: Callable[..., bool], tries: int = 40) -> tuple[Any, ...]:
    for seed in range(tries):
        for step in games(seed):
            if wanted(*step):
                return step
    raise AssertionError("no such scenario in the games tried")


def _mea_rules() -> MeaRules:
    cards = sorted(DEMO.values(), key=lambda c: c.name)
    a = MeaDeck("A", tuple((c, 1) for c in cards[0::2]))
    b = MeaDeck("B", tuple((c, 1) for c in cards[1::2]))
    return MeaRules(decks=(a, b))


def _mea_games(seed: int) -> Iterator[Any]:
    return _steps(_mea_rules().new_initial_state(seed), 0, seed)


def test_mea_an_attack_says_who_died():
    def killed(action, before, after, s0, s1):
        return isinstance(action, Attack) and any(
            s0.zone(i) == BOARD and s1.zone(i) == OUT for i in s0.on_tile(action.target)
        )

    action, before, after, s0, s1 = _find(_mea_games, killed)
    lines = mea_view.effects(before, after, f"P1: {action}")
    dead = [i for i in s0.on_tile(action.target) if s1.zone(i) == OUT]
    for i in dead:
        assert f"{s0.card(i).name} ({'P1' if s0.controller(i) == 0 else 'P2'}) dies on {B.name(action.target)}" in lines


def test_mea_a_flipped_tile_and_a_displaced_monster_are_named():
    def flipped(action, before, after, s0, s1):
        return any(q in s1.tiles() and s0.tiles()[q] != s1.tiles()[q] for q in s0.tiles())

    action, before, after, s0, s1 = _find(_mea_games, flipped)
    lines = mea_view.effects(before, after, str(action))
    for q, owner in s0.tiles().items():
        if q in s1.tiles() and s1.tiles()[q] != owner:
            new = "P1 (yellow)" if s1.tiles()[q] == 0 else "P2 (blue)"
            assert f"tile {B.name(q)} flips to {new}" in lines

    def displaced(action, before, after, s0, s1):
        return not str(action).startswith("move ") and any(
            s0.zone(i) == BOARD and s1.zone(i) == BOARD and s0.tile_of(i) != s1.tile_of(i) for i in s0.monsters()
        )

    action, before, after, s0, s1 = _find(_mea_games, displaced)
    lines = mea_view.effects(before, after, str(action))
    moved = [i for i in s0.monsters() if s1.zone(i) == BOARD and s0.tile_of(i) != s1.tile_of(i)]
    for i in moved:
        assert any(
            f"{s0.card(i).name} " in ln and f"goes from {B.name(s0.tile_of(i))} to {B.name(s1.tile_of(i))}" in ln
            for ln in lines
        )


def test_mea_an_ability_says_what_it_did():
    def buffed(action, before, after, s0, s1):  # an ability changed a monster's attack or defence
        return any(
            s1.zone(i) == BOARD
            and s0.zone(i) == BOARD
            and (s0.attack_of(i), s0.defence_of(i)) != (s1.attack_of(i), s1.defence_of(i))
            for i in s0.monsters()
        )

    action, before, after, s0, s1 = _find(_mea_games, buffed)
    lines = mea_view.effects(before, after, f"P1: {action}")
    changed = [
        i
        for i in s0.monsters()
        if s1.zone(i) == BOARD and (s0.attack_of(i), s0.defence_of(i)) != (s1.attack_of(i), s1.defence_of(i))
    ]
    for i in changed:
        old, new = f"{s0.attack_of(i)}/{s0.defence_of(i)}", f"{s1.attack_of(i)}/{s1.defence_of(i)}"
        assert any(f"{s0.card(i).name} " in ln and f"{old} → {new}" in ln for ln in lines), lines


def test_mea_draws_name_my_cards_and_count_the_opponents():
    def drew(action, before, after, s0, s1):
        return isinstance(action, Draw) and s0.current_player == 0 and s1.end_code is None

    action, before, after, s0, s1 = _find(_mea_games, drew)
    lines = mea_view.effects(before, after, f"P1 (you): {action}")
    got = [i for i in s1.hand(0) if i not in s0.hand(0)]
    assert len(got) == action.k
    assert f"you draw {', '.join(mea_view.hand_entry(s0.card(i)) for i in got)}" in lines
    state = s1.clone()
    while state.current_player != 1 or state.phase not in ("main", "opening"):
        state.apply(state.legal_actions()[0] if state.current_player != CHANCE else state.sample_chance())
    before = state.observation(0)
    state.apply(Draw(1))
    assert "P2 draws 1 card" in mea_view.effects(before, state.observation(0), "P2: draw 1")


def test_mea_an_empty_hand_reads_no_cards_not_the_does_not_apply_dash():
    """Before the opening draw my hand is empty: "no cards", as the opponent's "0 cards" and the
    browser's table say; "—" means a value that does not apply everywhere else."""
    from rich.console import Console

    state = _mea_rules().new_initial_state(1)
    state.resolve_chance()
    assert state.phase == "opening" and not state.hand(0)
    console = Console(width=200, record=True, color_system=None)
    console.print(mea_view.table(state.observation(0)))
    mine = next(line for line in console.export_text().splitlines() if "(you):" in line)
    assert mine.endswith("hand no cards"), mine


def test_mea_both_empty_hands_read_alike_on_the_terminal_and_the_web_board():
    """At the opening draw both hands are empty: the opponent's read "hand 0 cards" beside my "hand no
    cards" (and "hand 0" on the web board). One wording wherever an empty hand shows."""
    from rich.console import Console

    from cardbase.web.pages import TEMPLATES

    state = _mea_rules().new_initial_state(1)
    state.resolve_chance()
    assert state.phase == "opening" and not state.hand(0) and not state.hand(1)
    console = Console(width=200, record=True, color_system=None)
    console.print(mea_view.table(state.observation(0)))
    lines = [line for line in console.export_text().splitlines() if line.startswith(("P1 ", "P2 "))]
    assert len(lines) == 2 and all(line.endswith("hand no cards") for line in lines), lines
    html = TEMPLATES.env.get_template("play/_board_mea.html").render(
        view=board_view("mea", state.observation(0)), legal=[], seat=0, version=0, game_id=None
    )
    assert html.count("<span>hand no cards</span>") == 2 and "hand 0" not in html, html


def test_mea_an_opponent_with_one_card_holds_1_card_not_1_cards():
    from rich.console import Console

    *_, s1 = _find(_mea_games, lambda action, before, after, s0, s1: len(s1.hand(1)) == 1)
    console = Console(width=200, record=True, color_system=None)
    console.print(mea_view.table(s1.observation(0)))
    theirs = next(line for line in console.export_text().splitlines() if line.startswith("P2 (blue):"))
    assert theirs.endswith("hand 1 card"), theirs


def test_mea_drawing_the_eleventh_card_asks_first():
    state = _mea_rules().new_initial_state(1)
    state.resolve_chance()
    obs = state.observation(0)
    assert mea_view.confirm(obs, Draw(10)) is None
    question = mea_view.confirm(obs, Draw(11))
    assert question is not None and "11 cards in hand" in question and "lose at once" in question
    assert mea_view.confirm(obs, Summon("x", 0)) is None
    assert HAND == 1  # the zone the effects read


def test_meio_the_log_names_each_trick_winner_and_sums_up_each_round():
    rules = MeioRules(players=2)
    tricks, rounds = [], []
    for action, before, after, s0, s1 in _steps(rules.new_initial_state(5), 0, 5):
        lines = meio_view.effects(before, after, str(action))
        if len(s1.tricks()) > len(s0.tricks()):
            leader, cards, winner = s1.tricks()[-1]
            best = meio_view.card_label(cards[(winner - leader) % 2])
            assert lines[0].startswith(
                f"P{winner + 1}{' (you)' if winner == 0 else ''} wins trick {len(s1.tricks())} with {best}"
            )
            tricks.append(lines[0])
        if len(s1.round_scores()) > len(s0.round_scores()):
            assert f"Round {len(s1.round_scores())} over" in lines[-4]
            for seat in (0, 1):
                h, v = s1.tricks_won()[seat]
                row = next(ln for ln in lines if ln.strip().startswith(f"P{seat + 1}") and "/" in ln and "→" in ln)
                assert f"{h} / {v} → {abs(h - v)}" in row and f"total {s1.totals()[seat]}" in row
            rounds.append(lines)
    assert len(tricks) == 3 * 13 and len(rounds) == 3
    assert any("laid horizontal" in t for t in tricks) and any("laid vertical" in t for t in tricks)


def test_meio_suits_in_colour_on_a_terminal_only(monkeypatch, capsys):
    text = meio_view.styled("Your hand: 7♥ K♦ 2♠ 10♣")
    red = [text.plain[s.start : s.end] for s in text.spans]
    assert red == ["7♥", "K♦"]
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    meio_view.write("7♥")
    assert "\x1b[" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    meio_view.write("7♥")
    assert "31m" not in capsys.readouterr().out  # no red
    monkeypatch.delenv("FORCE_COLOR")
    monkeypatch.delenv("NO_COLOR")
    meio_view.write("7♥")
    assert capsys.readouterr().out == "7♥\n"  # not a terminal: plain


def _meikyu_games(seed: int) -> Iterator[Any]:
    rules = make_rules(default_pool(), 2)
    return _steps(rules.new_initial_state(seed), 0, seed)


def test_meikyu_a_conquest_and_a_failed_quest_are_said():
    def conquered(action, before, after, s0, s1):
        return len(s1.kingdom(0)) > len(s0.kingdom(0))

    action, before, after, s0, s1 = _find(_meikyu_games, conquered)
    lines = play_effects(before, after, str(action))
    (new,) = [room for room, _ in s1.kingdom(0) if room not in {r for r, _ in s0.kingdom(0)}]
    assert any(ln.startswith("P1 (you) conquers " + new) or ln.startswith("P1 (you) takes ") for ln in lines), lines
    # the land's points come from the assumption profile (the rulebook gives none): the log says so, as the board does
    conquest = [ln for ln in lines if " conquers " in ln]
    assert all(re.search(r"\(\d+\* pt, assumed\)$", ln) for ln in conquest), conquest
    assert f"P1 (you): {s0.points(0)} → {s1.points(0)} pts" in lines

    def failed(action, before, after, s0, s1):
        ctx = before.ctx
        return (
            ctx is not None
            and ctx.get("kind") == "quest"
            and after.ctx is None
            and len(s1.kingdom(ctx["player"])) == len(s0.kingdom(ctx["player"]))
        )

    action, before, after, s0, s1 = _find(_meikyu_games, failed)
    assert any("quest for" in ln and "fails" in ln for ln in play_effects(before, after, str(action)))


def test_meikyu_a_redeal_says_why():
    def redeal(action, before, after, s0, s1):
        return s1.turns == 0 and any(before.hand_sizes[s] > 0 and after.hand_sizes[s] == 0 for s in range(2))

    action, before, after, _s0, _s1 = _find(_meikyu_games, redeal, tries=200)
    lines = play_effects(before, after, str(action))
    assert any(ln.startswith("redeal: P") and "was dealt an OPEN card" in ln for ln in lines), lines


def test_meikyu_assumptions_are_one_line():
    pool = default_pool()
    line = assumptions_line(pool)
    assert line is not None and line.startswith("84 values and 17 whole cards assumed; type 'assumptions'")
    assert "\n" not in line


def test_mea_board_wraps_long_monster_names_at_spaces_not_mid_word():
    from rich.console import Console

    def long_name_on_board(action, before, after, s0, s1):
        return any(len(s1.card(i).name) > 15 for i in s1.monsters())

    *_, s1 = _find(_mea_games, long_name_on_board)
    con = Console(record=True, width=100)
    con.print(mea_view.table(s1.observation(0)))
    words = con.export_text().split()
    for i in s1.monsters():
        name = s1.card(i).name
        if len(name) > 15:
            assert all(w in words for w in name.split()), (name, words)


def test_mea_turns_are_numbered_as_each_player_counts_them():
    """Both players' turns alternate: P1's third turn is the game's fifth, and says so as P1's turn 3."""
    state = _mea_rules().new_initial_state(1)
    seen: list[str] = []
    while len(seen) < 6:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
            continue
        if state.phase == "main" and (not seen or not seen[-1].startswith(state.turn_label())):
            seen.append(mea_view.status_line(state.observation(0)))
            assert state.observation(1).describe().startswith(f"Méa · {state.turn_label()} · phase main")
        state.apply(next(a for a in state.legal_actions() if isinstance(a, Draw)))
    labels = [line.split(" · ")[1] for line in seen]
    assert labels == ["P1's turn 1", "P2's turn 1", "P1's turn 2", "P2's turn 2", "P1's turn 3", "P2's turn 3"]
    assert (state.turn, state.turn_label()) == (7, "P1's turn 4")  # the game's count: both players together


def test_mea_the_log_names_the_opponents_triggered_abilities():
    """P2's Siege Snail acts at the start of P2's turn, and P2's Dizzy Bat when P1 kills it: P1's log
    names each card and its ability, then says what happened."""
    from tests.mea.conftest import GIANT, PAWN, Table, demo, rules_for, started

    state = started(rules_for([PAWN, PAWN, PAWN, PAWN, GIANT], [demo("Siege Snail"), demo("Dizzy Bat")]))
    t = Table(state)
    t.put(1, "Siege Snail", "b2")
    bat = t.put(1, "Dizzy Bat", "a2")
    t.put(0, "Giant", "a1")
    for name in ("b1", "c2"):
        t.put(0, "Pawn", name)
    state = t.turn(0)
    before = state.observation(0)
    state.apply_text("attack a2 with Giant@a1")
    lines = mea_view.effects(before, state.observation(0), "P1 (you): attack a2 with Giant@a1")
    assert lines[0] == "Dizzy Bat (P2) — When killed: Draw 1 card."
    assert "Dizzy Bat (P2) dies on a2" in lines and "P2 draws 1 card" in lines
    assert state.zone(bat) == OUT
    before = state.observation(0)
    state.apply_text("draw 1")  # P2's turn starts: the Snail destroys an empty tile of P1's
    lines = mea_view.effects(before, state.observation(0), "P1 (you): draw 1")
    assert "Siege Snail (P2) — At the start of your turn: Destroy 1 empty enemy tile." in lines
    assert "tile b3 (P1) is removed from the board" in lines, lines


def test_mea_the_abilities_named_come_from_cards_the_viewer_sees():
    """In random games, every ability a player's log names belongs to a card on the board or out of
    play (just killed, or an assist just played) in that player's view: never one in a hidden hand or deck."""
    named = 0
    for seed in range(6):
        for _, before, after, _, _ in _mea_games(seed):
            a, b = before.view, after.view
            for i in b.fired_from():
                assert a.zone(i) in (BOARD, OUT) or b.zone(i) in (BOARD, OUT), (seed, a.card(i).name)
                named += 1
    assert named > 0
