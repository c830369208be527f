"""What a table tells a seat depends only on what that seat may know: two games that differ only
in cards hidden from the seat to move (its information set resampled, as the search agents deal
it) give that seat the same legal actions, the same board text and the same hint; and a seat may
take back its own action only while it learnt no card by it (else it could peek and undo)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardbase.games.meikyu.engine import MeikyuRules
from cardbase.games.meio.engine import MeioRules
from cardbase.sim.table import HUMAN, Table
from tests.meikyu.helpers import default_pool
from tests.play.test_table import mea_rules
from tests.web.test_play_noleak import _every_name, _found


def rules_of(game: str) -> Any:
    return {"mea": mea_rules(), "meio": MeioRules(players=2), "meikyu": MeikyuRules(default_pool(), players=2)}[game]


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_what_a_seat_is_told_does_not_depend_on_cards_hidden_from_it(game: str) -> None:
    rules = rules_of(game)
    table = Table(rules, 9, [HUMAN, HUMAN])
    rng = random.Random(2)
    differs: list[Any] = []
    compared = hints = resampled = 0
    for step in range(250):
        if table.over:
            break
        seat, state = table.state.current_player, table.state
        for k in range(3):
            other = state.resample_from_infostate(seat, random.Random(k))
            told = (other.current_player, [str(a) for a in other.legal_actions()], other.observation(seat).describe())
            if told != (seat, [str(a) for a in state.legal_actions()], state.observation(seat).describe()):
                differs.append((step, "legal or text"))
            compared += 1
            resampled += other.observation(1 - seat).describe() != state.observation(1 - seat).describe()
        if step % 40 == 5 and hints < 3:  # the hint (a search) for the position and for a resampled one
            real = Table(rules, 9, [HUMAN, HUMAN], origin=state.clone()).hint(seat)
            dealt = Table(rules, 9, [HUMAN, HUMAN], origin=state.resample_from_infostate(seat, random.Random(7)))
            if dealt.hint(seat) != real:
                differs.append((step, "hint"))
            hints += 1
        legal = table.view(seat)["legal"]
        table.act(seat, rng.randrange(len(legal)), table.version)
    assert not differs, differs[:5]
    assert compared > 30 and hints
    assert resampled  # the test can fail: the resampled games deal the other seat other cards


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_a_seat_may_undo_only_an_action_that_showed_it_no_card(game: str) -> None:
    rules = rules_of(game)
    table = Table(rules, 1, [HUMAN, HUMAN])
    names = _every_name(rules)
    rng = random.Random(1)
    learnt: list[Any] = []
    offered = refused_after_learning = 0

    def shown(seat: int) -> set[str]:
        view = table.view(seat, log=0)
        return set(_found(names, json.dumps([view["view"], view["text"]], ensure_ascii=False)))

    for _ in range(300):
        if table.over:
            break
        seat = table.state.current_player
        before = shown(seat)
        legal = table.view(seat)["legal"]
        choice = rng.randrange(len(legal))
        table.act(seat, choice, table.version)
        new = shown(seat) - before - set(_found(names, legal[choice]["text"]))
        if table.can_undo(seat):
            offered += 1
            if new:
                learnt.append((legal[choice]["text"], sorted(new)))
        else:
            refused_after_learning += bool(new)
    assert not learnt, learnt[:5]
    assert offered
    if game != "meio":  # the test can fail: it sees a seat learn a card (a draw, a die's room), undo then refused
        assert refused_after_learning
