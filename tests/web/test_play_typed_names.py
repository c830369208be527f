"""A typed action whose name could be several cards is refused in words, never a 500.

Found on a walk through a Meikyu game in the browser: typing ``quest Unnamed room with Bee`` (or an
action listed a moment before, sent after the table moved on) answered "Internal error 500 …
AmbiguousName" with the crash file's path. The table turns the ambiguity into the refusal of what was
typed (``InvalidAction``), for the page's form and the API alike."""

from __future__ import annotations

import html
import re
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from cardbase.names import fold
from tests.web.play_helpers import hall, keys_of, new_game, seat_header, settle, view

TYPED = {"meikyu": "quest {} with Bee"}
"""A line of each game that names a card where the word typed is one word of several known names (Méa's
demo decks share no word between two names)."""


def shared_word(client: TestClient, game_id: str, seat: int) -> tuple[str, list[str]]:
    """A word that is in two or more of the names the seat may type, and those names."""
    table = hall(client).get(game_id).table
    names = tuple(table.ui.known_names(table.state, seat)) if table.ui.known_names else table.ui.vocabulary.names
    own = {fold(w) for w in table.ui.vocabulary.words}
    counts = Counter(w for n in names for w in {fold(x) for x in n.split() if x.isalpha()} - own)
    word = next((w for w, n in counts.most_common() if n > 1), None)
    assert word is not None, names
    return word, sorted(n for n in names if word in {fold(x) for x in n.split()})


@pytest.mark.parametrize("game", sorted(TYPED))
def test_a_name_that_could_be_several_cards_is_refused_in_words(client: TestClient, game: str) -> None:
    made = new_game(client, game, ["human", "heuristic"], seed=5)
    game_id, key = made["id"], keys_of(made)[0]
    settle(client, game_id)
    data = view(client, game_id, key)
    word, candidates = shared_word(client, game_id, 0)
    typed = TYPED[game].format(word)
    api = client.post(
        f"/api/games/{game_id}/actions", json={"action": typed, "version": data["version"]}, headers=seat_header(key)
    )
    assert api.status_code == 422, api.text
    message = api.json()["error"]["message"]
    assert "type more of the name" in message and all(c in message for c in candidates), message
    page = client.post(
        f"/play/{game_id}/act", data={"action": typed, "version": str(data["version"])}, headers=seat_header(key)
    )
    assert page.status_code == 422, page.text[:500]
    said = re.search(r'<p id="error"[^>]*>(.*?)</p>', page.text, re.S)
    assert said is not None and "type more of the name" in html.unescape(said.group(1)), page.text[:1500]
    assert "Internal error" not in page.text and "cardbase-crash" not in page.text
    assert view(client, game_id, key)["version"] == data["version"]  # nothing was played


def test_a_named_room_with_a_number_gets_the_rules_reason_not_the_names_words(client: TestClient) -> None:
    """A quest on "Unnamed room 2" with characters not held, or one sent after the table asked for
    something else, answered "'Unnamed room' could be Unnamed room 1, … 16": the name was split at its
    number. The action as written is one: its check's reason is the answer (the rule's refusal)."""
    made = new_game(client, "meikyu", ["human", "human"], seed=2)
    game_id, keys = made["id"], keys_of(made)
    table = hall(client).get(game_id).table
    seat = table.state.current_player
    data = view(client, game_id, keys[seat])
    quest = next((a["text"] for a in data["legal"] if re.match(r"quest Unnamed room \d+ with ", a["text"])), None)
    assert quest is not None, [a["text"] for a in data["legal"]]
    typed = re.sub(r" with .*", " with Bee, Bee, Bee", quest)  # more Bees than anyone holds
    expected = None
    try:
        table.state.check(table.state.parse_action(typed))
    except Exception as error:  # the rule's own words for the action as written
        expected = str(error)
    assert expected is not None
    answer = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": typed, "version": data["version"]},
        headers=seat_header(keys[seat]),
    )
    assert answer.status_code in (409, 422), answer.text
    message = answer.json()["error"]["message"]
    assert message == expected and "could be" not in message, message
