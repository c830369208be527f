"""Names as people type them: in any case, with or without accents (folded as search folds them,
:func:`cardbase.names.fold`), short when unique — at the play prompt, in ``card NAME``, in Tab
completion, in the rules' own messages and in replayed notation; all through
:func:`cardbase.fuzzy.match`."""

from __future__ import annotations

import pytest

from cardbase.fuzzy import AmbiguousName, begins, match
from cardbase.games.mea import board as B
from cardbase.games.mea.actions import Summon
from cardbase.sim import mea_view
from cardbase.sim.play import Vocabulary, expand_names, play_interactive
from cardbase.sim.prompt import completions
from cardbase.sim.records import parse_records, record_lines, replay
from cardbase.sim.registry import GAMES
from tests.mea.conftest import PAWN, demo, rules_for, started

ACCENTED = ("Jalapeño Imp", "Naïve Squire", "Crème Golem", "Château Toad")
NAMES = (*ACCENTED, "Crumb Goblin", "Pickpocket Ferret", "Fire Imp")


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("jalapeno", "Jalapeño Imp"),
        ("JALAPEÑO", "Jalapeño Imp"),
        ("jalapeno imp", "Jalapeño Imp"),
        ("naive", "Naïve Squire"),
        ("NAIVE SQUIRE", "Naïve Squire"),
        ("creme", "Crème Golem"),
        ("Crème golem", "Crème Golem"),
        ("chateau", "Château Toad"),
        ("château t", "Château Toad"),
        ("\ufb01re", "Fire Imp"),  # the ligature ﬁ, as some keyboards and pastes give it
        ("ferret", "Pickpocket Ferret"),  # a word of the name
        ("jalapeno imq", "Jalapeño Imp"),  # a close spelling
    ],
)
def test_match_folds_case_accents_and_ligatures(typed: str, name: str) -> None:
    assert match(typed, NAMES) == name


def test_match_names_every_name_a_fragment_could_be() -> None:
    with pytest.raises(AmbiguousName) as error:
        match("imp", NAMES)
    assert error.value.candidates == ("Fire Imp", "Jalapeño Imp")
    # two cards whose names fold alike: neither is picked, both are named
    with pytest.raises(AmbiguousName) as error:
        match("creme golem", ("Crème Golem", "Creme Golem", "Crumb Goblin"))
    assert "Creme Golem, Crème Golem" in str(error.value)
    assert match("banana", NAMES) is None
    assert begins("pick fer", "Pickpocket Ferret") and not begins("", "Pickpocket Ferret")


def test_names_expand_and_complete_without_accents() -> None:
    vocabulary = Vocabulary(("summon", "attack", "with"), NAMES, mea_view._TILE)
    assert expand_names("summon jalapeno b3", vocabulary) == "summon Jalapeño Imp b3"
    assert expand_names("attack b2 with CHATEAU@a2 + naive@b1", vocabulary) == (
        "attack b2 with Château Toad@a2 + Naïve Squire@b1"
    )
    assert ("Jalapeño Imp", len("jalapeno")) in completions("summon jalapeno", vocabulary)
    assert ("Château Toad", len("CHATEAU")) in completions("summon CHATEAU", vocabulary)
    assert ("Crème Golem", len("creme")) in completions("attack b2 with creme", vocabulary)


def _play(name: str, typed: list[str]) -> list[str]:
    """P1 holds only ``name`` (ten copies) and types ``typed`` after the opening draw; the log."""
    rules = rules_for([demo(name)] * 10, [PAWN] * 10, filler=0)
    lines = iter(["draw 3", *typed, "quit"])
    out: list[str] = []
    agents = {1: GAMES["mea"].make_agent("random", rules, 1, 0)}
    play_interactive(rules, 1, 0, agents, lambda prompt: next(lines, None), out.append, ui=mea_view.game_ui(rules))
    return out


@pytest.mark.parametrize(
    ("name", "typed"),
    [
        ("Jalapeño Imp", "summon jalapeno b1"),
        ("Jalapeño Imp", "summon JALAPEÑO imp b1"),
        ("Naïve Squire", "summon naive b1"),
        ("Crème Golem", "summon creme golem b1"),
        ("Château Toad", "summon chateau b1"),
    ],
)
def test_the_prompt_takes_a_name_typed_without_its_accents(name: str, typed: str) -> None:
    out = _play(name, [typed, f"card {typed.split()[1]}"])
    assert f"P1 (you): summon {name} b1" in out
    assert not any("do not hold" in line for line in out)
    assert any(line.startswith(f"{name} — monster, cost ") for line in out)  # card NAME, folded too


def test_the_rules_never_say_you_do_not_hold_a_spelling_of_a_card_you_hold() -> None:
    rules = rules_for([demo("Jalapeño Imp")] * 10, [PAWN] * 10, filler=0)
    state = started(rules, (3, 3))
    from cardbase.games.base import IllegalAction

    assert state.is_legal(state.parse_action("summon JALAPENO IMP b1"))  # the whole name, folded
    with pytest.raises(IllegalAction) as refused:
        state.check(state.parse_action("summon jalapeno b1"))
    assert str(refused.value) == "you hold no card by that name (did you mean Jalapeño Imp?)"
    with pytest.raises(IllegalAction, match=r"^you hold no card by that name$"):  # P2's, hidden from P1
        state.check(state.parse_action("summon pawn b1"))


def test_a_record_replays_with_names_typed_without_accents() -> None:
    rules = rules_for([demo("Jalapeño Imp"), demo("Naïve Squire")] * 5, [PAWN] * 10, filler=0)
    state = rules.new_initial_state(3)
    agents = [GAMES["mea"].make_agent("heuristic", rules, s, s) for s in (0, 1)]
    while not state.is_terminal:
        p = state.current_player
        state.apply(state.sample_chance() if p < 0 else agents[p].act(state.observation(p), state.legal_actions()))
    head, *moves = record_lines(rules, 3, state.history, ["heuristic", "heuristic"])
    typed = [m.replace("Jalapeño Imp", "jalapeno imp").replace("Naïve Squire", "NAIVE SQUIRE") for m in moves]
    assert typed != moves  # the game summoned them
    result = replay(parse_records("\n".join([head, *typed]) + "\n")[0])
    assert result.finished and result.state.history == state.history
    assert Summon("Jalapeño Imp", B.parse("b1")) == rules.parse_action("summon Jalapeno Imp b1")


def test_a_player_knows_the_names_of_its_deck_its_hand_and_the_table_not_the_other_deck() -> None:
    from cardbase.games.mea.codes import HAND, OUT

    rules = rules_for([demo("Jalapeño Imp")] * 2, [demo("Naïve Squire"), demo("Crumb Goblin"), PAWN], filler=0)
    state = started(rules, (1, 1))
    assert "Naïve Squire" not in state.known_names(0) and "Jalapeño Imp" in state.known_names(0)
    instances = range(len(state.deck(0)) + len(state.deck(1)) + len(state.hand(0)) + len(state.hand(1)))
    theirs = [i for i in instances if state.owner(i) == 1]
    squire = next(i for i in theirs if state.card(i).name == "Naïve Squire")
    goblin = next(i for i in theirs if state.card(i).name == "Crumb Goblin")
    state.place_card(squire, HAND, seat=0)  # taken into P1's hand
    state.place_card(goblin, OUT)  # played
    assert {"Naïve Squire", "Crumb Goblin"} <= set(state.known_names(0))
    assert "Pawn" not in state.known_names(0) and "Pawn" in state.known_names(1)


def test_card_at_the_prompt_shows_no_card_of_the_other_deck() -> None:
    """``card NAME`` writes a short name out to a card the player knows only (its deck, hand, the table):
    a name of the other deck's hidden list reads as a name of no deck does."""
    rules = rules_for([demo("Jalapeño Imp")] * 10, [PAWN] * 10, filler=0)
    lines = iter(["draw 3", "card pawn", "card zzzz", "card jalapeno", "quit"])
    out: list[str] = []
    agents = {1: GAMES["mea"].make_agent("random", rules, 1, 0)}
    play_interactive(rules, 1, 0, agents, lambda prompt: next(lines, None), out.append, ui=mea_view.game_ui(rules))
    assert any(line.startswith("Jalapeño Imp — monster, cost ") for line in out)  # its own card
    said = [line for line in out if "'pawn'" in line or "'zzzz'" in line]
    assert len(said) == 2 and said[0] == said[1].replace("zzzz", "pawn"), said
    assert not any(line.startswith("Pawn — monster") for line in out), out
