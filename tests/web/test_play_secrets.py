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

from fastapi.testclient import TestClient

from cardbase.sim.registry import new_seed
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
