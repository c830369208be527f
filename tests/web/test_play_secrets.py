"""A cheating player at the table: what a seat may not learn by the other roads than the views
test_play_noleak.py reads (the seed, a refusal's message).

- The seed decides every deal, shuffle and die. A player who knows their own cards must not be
  able to search the seeds for the one that dealt them (then every hand and every future roll is
  theirs): a new game's seed has 63 random bits, and no output of an unfinished game says it.
- A refused Méa move names only cards the seat may know (its own deck list, the cards on the
  board or out of play): the other deck's list is hidden until the game is over, so a typed
  fragment is not written out to a card of it, and "no card in this game is called …" does not
  tell a name of the other deck from a name of no deck."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from cardbase.sim.registry import new_seed
from tests.web.conftest import error_of
from tests.web.play_helpers import hall, keys_of, new_game, seat_header, view


def test_a_new_seed_is_too_wide_to_search_from_a_hand() -> None:
    seeds = [new_seed() for _ in range(8)]
    assert max(seeds) >= 2**40  # 8 draws of 63 bits all below 2**40: 2**-184
    assert all(0 <= s < 2**63 for s in seeds) and len(set(seeds)) == 8


def _outputs(client: TestClient, game_id: str, key: str | None) -> str:
    headers = seat_header(key) if key else {}
    texts = [json.dumps(view(client, game_id, key)), client.get(f"/play/{game_id}/board", headers=headers).text]
    if key:
        texts.append(client.get(f"/api/games/{game_id}/record", headers=headers).text)
        texts.append(client.get(f"/api/games/{game_id}/hint", headers=headers).text)
    texts.append(json.dumps(client.get("/api/games").json()))
    return "\n".join(texts)


def test_no_output_of_an_unfinished_game_says_its_seed(client: TestClient) -> None:
    for game in ("meio", "mea", "meikyu"):
        made = new_game(client, game, ["human", "human"])
        game_id, keys = made["id"], keys_of(made)
        seed = hall(client).get(game_id).table.seed
        assert seed >= 2**31  # new_seed()'s 63 bits (below 2**31: one draw in 2**32)
        to_move = hall(client).get(game_id).table.state.current_player
        for key in (None, keys[to_move]):
            assert str(seed) not in _outputs(client, game_id, key), (game, key)


def _mea_at_main(client: TestClient) -> tuple[str, dict[int, str], Any]:
    made = new_game(client, "mea", ["human", "human"], seed=3)
    game_id, keys = made["id"], keys_of(made)
    live = hall(client).get(game_id)
    for _ in range(2):  # both opening draws
        seat = live.table.state.current_player
        moved = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": "draw 5", "version": live.table.version},
            headers=seat_header(keys[seat]),
        )
        assert moved.status_code == 200, moved.text
    return game_id, keys, live


def test_a_refused_mea_move_names_no_card_of_the_other_deck(client: TestClient) -> None:
    game_id, keys, live = _mea_at_main(client)
    state = live.table.state
    seat = state.current_player
    assert view(client, game_id, keys[seat])["legal"], "P1 is to make a main-phase move"
    instances = range(len(state.deck(0)) + len(state.deck(1)) + len(state.hand(0)) + len(state.hand(1)))
    own = {state.card(i).name for i in instances if state.owner(i) == seat}
    theirs = sorted({state.card(i).name for i in instances if state.owner(i) != seat} - own)
    assert len(theirs) >= 3, "the example decks share too many cards for this test"
    said = []
    for name in theirs:
        for text in (f"summon {name} a1", f"summon {name[:-1]} a1", f"play {name}", f"play {name[:6]}"):
            refused = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": text, "version": live.table.version},
                headers=seat_header(keys[seat]),
            )
            assert refused.status_code == 422, refused.text
            message = error_of(refused)
            said.append(message)
            for other in theirs:
                assert other not in message or other in text, f"{text!r} was refused naming {other}: {message}"
    # a name of the other deck is refused as a name of no deck is (its suggestion aside)
    nowhere = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "play Nonesuch Card", "version": live.table.version},
        headers=seat_header(keys[seat]),
    )
    head = error_of(nowhere).split(" (did you mean")[0]
    assert head == "you hold no card by that name"
    # (a fragment close to a card of its own is written out to it: "you do not hold Crumb Goblin")
    heads = {m.split(" (did you mean")[0] for m in said}
    assert head in heads and heads <= {head} | {f"you do not hold {name}" for name in own}, heads


def test_the_record_of_an_unfinished_game_is_the_seats_own_log(client: TestClient) -> None:
    """Before the end a seat downloads only what its log told it (test_play_noleak checks the log),
    without the seed; the spectator gets nothing."""
    import random

    for game in ("meio", "mea", "meikyu"):
        made = new_game(client, game, ["human", "human"], seed=11)
        game_id, keys = made["id"], keys_of(made)
        live = hall(client).get(game_id)
        rng = random.Random(3)
        for _ in range(25):
            if live.table.over:
                break
            seat = live.table.state.current_player
            legal = view(client, game_id, keys[seat])["legal"]
            moved = client.post(
                f"/api/games/{game_id}/actions",
                json={"id": rng.randrange(len(legal)), "version": live.table.version},
                headers=seat_header(keys[seat]),
            )
            assert moved.status_code == 200, moved.text
        assert not live.table.over
        assert client.get(f"/api/games/{game_id}/record").status_code == 403
        for seat, key in keys.items():
            lines = [
                json.loads(line)
                for line in client.get(f"/api/games/{game_id}/record", headers=seat_header(key)).text.splitlines()
            ]
            head, actions = lines[0], lines[1:]
            assert head["seed"] is None and head["unfinished"] is True
            log = view(client, game_id, key)["log"]
            said = [e["text"] for e in log]
            written = [
                f"— {a['action']} —"
                if a["player"] == "chance"
                else f"P{int(a['player'][1:])}{' (you)' if int(a['player'][1:]) == seat + 1 else ''}: {a['action']}"
                for a in actions
            ]
            assert written == said, (game, seat)
