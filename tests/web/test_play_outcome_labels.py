"""The end of a Meikyu game under an assumption profile: the board marks each kingdom's points that count
assumed land points (``5* of 10 pts``), but "The game" panel said "Scores: P1 1, P2 5, P3 10." with no
mark — assumed values shown as if they were the rulebook's. The scores carry the board's mark."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests.web.play_helpers import hall, new_game, settle


def test_scores_that_count_assumed_points_are_marked(client: TestClient) -> None:
    made = new_game(client, "meikyu", ["heuristic"] * 3, seed=4)
    settle(client, made["id"])
    table = hall(client).get(made["id"]).table
    assert table.over
    data = table.view(None)
    marked = [p["seat"] for p in data["view"]["players"] if p["points_assumed"]]
    assert marked, "no kingdom counted assumed points: pick another seed"
    page = client.get(f"/play/{made['id']}")
    assert page.status_code == 200
    line = re.search(r'<p id="scores">(.*?)</p>', page.text, re.S)
    assert line is not None, page.text[-3000:]
    said = html.unescape(re.sub(r"<abbr[^>]*>\*</abbr>", "*", line.group(1)))
    said = re.sub(r"<[^>]+>", "", said)
    for seat, score in enumerate(data["outcome"]["scores"]):
        mark = "*" if seat in marked else ""
        assert re.search(rf"P{seat + 1} {score:g}{re.escape(mark)}(,|\s|\.)", said), (seat, said)
    assert "counts assumed values" in said and str(table.labels["profile"]) in said


def test_a_finished_mea_game_promises_no_next_turn(client: TestClient) -> None:
    """The end of a Méa game said "mana next turn 13" beside each player: there is no next turn. The
    projection shows while the game goes on, not once it is over."""
    made = new_game(client, "mea", ["heuristic"] * 2, seed=4)
    settle(client, made["id"])
    assert hall(client).get(made["id"]).table.over
    board = client.get(f"/play/{made['id']}").text
    assert 'class="mea-player' in board and "mana next turn" not in board
    going = new_game(client, "mea", ["human", "heuristic"], seed=4)
    settle(client, going["id"])
    assert "mana next turn" in client.get(f"/play/{going['id']}").text
