"""The seat's page offers each legal action once: the board's own buttons are not listed again below it,
what the board builds from clicks is listed only for a page without script (marked ``board-clicks``), and
a page without script still reaches every action (the board's buttons and the list together)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.web.play import SHOWN_PER_KIND
from tests.web.play_helpers import mea_decks, settle, view

IDS = re.compile(r'name="action_id" value="(\d+)"')
FORMS = re.compile(r'<form class="legal( board-clicks)?"[^>]*>(.*?)</form>', re.S)

BODIES: dict[str, dict[str, Any]] = {
    "mea": {"game": "mea", "seats": [{"agent": "human"}, {"agent": "random"}], "decks": mea_decks()},
    "meio": {"game": "meio", "seats": [{"agent": "human"}, {"agent": "random"}, {"agent": "random"}]},
    "meikyu": {"game": "meikyu", "players": 3, "assume": "default",
               "seats": [{"agent": "human"}, {"agent": "random"}, {"agent": "random"}]},
}  # fmt: skip


def parts(html: str) -> tuple[set[int], set[int], set[int]]:
    """The action ids of the board's buttons, of the list's plain part and of its board-clicks part."""
    board = html[html.index('id="board"') : html.index('id="actions"')]
    actions = html[html.index('id="actions"') : html.index('id="log"')]
    plain: set[int] = set()
    clicked: set[int] = set()
    for mark, body in FORMS.findall(actions):
        (clicked if mark else plain).update(int(i) for i in IDS.findall(body))
    return {int(i) for i in IDS.findall(board)}, plain, clicked


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_each_legal_action_is_offered_once_and_all_without_script(client: TestClient, game: str) -> None:
    made = client.post("/api/games", json={**BODIES[game], "seed": 3})
    assert made.status_code == 201, made.text
    game_id, key = made.json()["id"], made.json()["seats"][0]["key"]
    client.get(f"/play/{game_id}?key={key}")  # the seat's cookie
    seen: set[str] = set()
    for _step in range(8):
        settle(client, game_id)
        data = view(client, game_id, key)
        if data["status"] != "playing" or data["current_player"] != 0:
            break
        html = client.get(f"/play/{game_id}").text
        board, plain, clicked = parts(html)
        assert not board & (plain | clicked), "an action on the board's buttons is listed again below it"
        kinds: dict[str, int] = {}
        for a in data["legal"]:
            kinds[a["kind"]] = kinds.get(a["kind"], 0) + 1
        for a in data["legal"]:  # without script: every action a button somewhere (or typed, past the shown ones)
            assert a["id"] in board | plain | clicked or kinds[a["kind"]] > SHOWN_PER_KIND, a
        seen.update("board" for _ in board)
        seen.update("clicked" for _ in clicked)
        if game == "mea" and data["view"]["phase"] == "opening":  # the draws are the board's buttons only
            assert {a["id"] for a in data["legal"]} == board and not plain and not clicked
        choice = next((a for a in data["legal"] if a["kind"] not in ("draw", "pass", "end")), data["legal"][0])
        moved = client.post(f"/play/{game_id}/act", data={"action_id": choice["id"], "version": data["version"]})
        assert moved.status_code in (200, 303), moved.text
    assert seen, "the game gave the person no turn"


def test_the_mea_start_form_checks_only_the_decks_edited_last(client: TestClient) -> None:
    """Each deck offered is checked as Start checks it, but only the ``CHECKED_OFFERS`` edited last:
    the older ones are offered after them, marked as not checked (a page with hundreds of decks)."""
    from cardbase.web.play import CHECKED_OFFERS
    from tests.web.conftest import new_deck

    ids = [new_deck(client, f"Draft {n:03d}") for n in range(CHECKED_OFFERS + 2)]  # empty: invalid
    page = client.get("/play?game=mea").text
    select = page[page.index('name="deck0"') :].split("</select>")[0]
    offered = re.findall(r'<option value="db:(\d+)"[^>]*>([^<]*)</option>', select)
    assert len(offered) == len(ids)
    assert [int(i) for i, label in offered if "not checked yet" in label] == ids[1::-1]  # the two oldest, last
    assert all("invalid: " in label for _, label in offered[:CHECKED_OFFERS])
