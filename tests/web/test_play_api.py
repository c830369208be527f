"""The play API and pages on the suite's database (SQLite, and PostgreSQL when
CARDBASE_TEST_POSTGRES is set): games started, seen per seat, moved, refused, undone, resumed."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from typer.testing import CliRunner

from cardbase.db.engine import Database
from tests.web.conftest import MakeClient, error_of
from tests.web.play_helpers import hall, keys_of, new_game, seat_header, settle, sse_views, view


def state_of(client: TestClient, game_id: str, keys: dict[int, str]) -> list[Any]:
    """Everything a refused request must leave as it was: each seat's view and the spectator's."""
    out = []
    for key in [None, *keys.values()]:
        data = view(client, game_id, key)
        out.append((data["version"], data["text"], [e["text"] for e in data["log"]], data["legal"]))
    return out


def test_a_new_game_gives_each_person_a_key_and_the_agents_none(client: TestClient, database: Database) -> None:
    made = new_game(client, "meio", ["human", "heuristic", "human"])
    assert [s["seat"] for s in made["seats"]] == [0, 1, 2]
    keys = keys_of(made)
    assert set(keys) == {0, 2} and "key" not in made["seats"][1]
    for seat, key in keys.items():
        assert len(key) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", key)  # 128 bits and more, URL-safe
        assert made["seats"][seat]["url"].endswith(f"/play/{made['id']}?key={key}")
    assert keys[0] != keys[2]
    # Only the keys' hashes are stored.
    from sqlalchemy import text

    with database.engine.connect() as conn:
        stored = [str(v) for row in conn.execute(text("SELECT * FROM play_seat")) for v in row]
        stored += [str(v) for row in conn.execute(text("SELECT * FROM play_game")) for v in row]
    assert not any(key in value for key in keys.values() for value in stored)
    watched = view(client, made["id"])
    assert watched["you"] is None and watched["legal"] == [] and "Your hand" not in watched["text"]


def test_a_seat_is_known_by_its_header_its_cookie_or_not_at_all(client: TestClient) -> None:
    made = new_game(client, "meio", ["human", "human"])
    game_id = made["id"]
    keys = keys_of(made)
    assert view(client, game_id, keys[1])["you"] == 1
    other = client.get(f"/api/games/{game_id}", headers={"X-Seat-Key": keys[0]}).json()
    assert other["you"] == 0
    forged = client.get(f"/api/games/{game_id}", headers=seat_header("A" * 32))
    assert forged.status_code == 403 and "opens no seat" in error_of(forged)
    opened = client.get(f"/play/{game_id}?key={keys[1]}")
    assert opened.status_code == 200 and 'http-equiv="refresh"' in opened.text and keys[1] not in opened.text
    cookie = opened.headers["set-cookie"]
    assert f"cardbase_seat_{game_id}=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert view(client, game_id)["you"] == 1  # the cookie now
    page = client.get(f"/play/{game_id}")
    assert "You are P2" in page.text and keys[1] not in page.text and keys[0] not in page.text
    wrong = client.get(f"/play/{game_id}?key=nope")
    assert wrong.status_code == 403


def test_actions_by_id_and_by_text_and_what_is_refused(client: TestClient) -> None:
    made = new_game(client, "meio", ["human", "human"])
    game_id, keys = made["id"], keys_of(made)
    first = view(client, game_id, keys[0])
    seat = first["current_player"]
    mover, waiter = keys[seat], keys[1 - seat]
    moved = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": first["version"]}, headers=seat_header(mover)
    )
    assert moved.status_code == 200, moved.text
    after = moved.json()
    assert after["version"] == first["version"] + 1 and after["log"][-1]["text"].startswith(f"P{seat + 1} (you): split")
    before = state_of(client, game_id, keys)
    # 409: made on the old view
    stale = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": first["version"]}, headers=seat_header(waiter)
    )
    assert stale.status_code == 409 and "moved on" in error_of(stale)
    # 403: not this seat's turn; no key; a forged key; the seat asked for is not held
    turn = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": after["version"]}, headers=seat_header(mover)
    )
    assert turn.status_code == 403 and "turn" in error_of(turn)
    nobody = client.post(f"/api/games/{game_id}/actions", json={"id": 0, "version": after["version"]})
    assert nobody.status_code == 403
    forged = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": after["version"]}, headers=seat_header("x" * 32)
    )
    assert forged.status_code == 403
    asked = client.post(
        f"/api/games/{game_id}/actions?seat={1 - seat}",
        json={"id": 0, "version": after["version"]},
        headers=seat_header(mover),
    )
    assert asked.status_code == 403
    # 422: the rules refuse it (with the rule), or it is no action of the game
    illegal = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "split " + " ".join(["AS"] * 6), "version": after["version"]},
        headers=seat_header(waiter),
    )
    assert illegal.status_code == 422, illegal.text
    body = illegal.json()["error"]
    assert set(body) >= {"message", "rule"} and body["rule"] and "Traceback" not in illegal.text
    gibberish = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "fly away", "version": after["version"]},
        headers=seat_header(waiter),
    )
    assert gibberish.status_code == 422 and gibberish.json()["error"]["rule"] == "notation"
    both = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": "x", "id": 0, "version": after["version"]},
        headers=seat_header(waiter),
    )
    assert both.status_code == 400
    assert state_of(client, game_id, keys) == before
    # and the seat to move takes its action by text
    split = view(client, game_id, waiter)["legal"][3]["text"]
    done = client.post(
        f"/api/games/{game_id}/actions",
        json={"action": split, "version": after["version"]},
        headers=seat_header(waiter),
    )
    assert done.status_code == 200 and done.json()["log"][-1]["text"].endswith(split)


def test_undo_over_the_api_and_its_refusal_after_a_draw(client: TestClient) -> None:
    made = new_game(client, "mea", ["human", "human"], seed=3)
    game_id, keys = made["id"], keys_of(made)
    undone = refused = False
    for _ in range(300):
        data = view(client, game_id)
        if data["status"] != "playing" or (undone and refused):
            break
        seat = data["current_player"]
        mine = view(client, game_id, keys[seat])
        legal = [a["text"] for a in mine["legal"]]
        pick = next((t for t in legal if t.startswith(("move", "summon"))), None) if not undone else None
        pick = pick or next((t for t in legal if t.startswith("draw")), legal[0])
        moved = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick, "version": mine["version"]},
            headers=seat_header(keys[seat]),
        ).json()
        if pick.startswith("draw"):
            assert not moved["undo"]  # not offered: the table would refuse it (asked below all the same)
        elif not moved["undo"]:
            continue
        back = client.post(
            f"/api/games/{game_id}/undo", json={"version": moved["version"]}, headers=seat_header(keys[seat])
        )
        if pick.startswith("draw"):
            assert back.status_code == 422, back.text
            assert back.json()["error"]["rule"] == "undo-revealed" and "hidden" in back.json()["error"]["message"]
            assert view(client, game_id, keys[seat])["version"] == moved["version"]
            refused = True
        elif back.status_code == 200:
            assert back.json()["version"] == moved["version"] + 1
            assert [e["text"] for e in back.json()["log"]] == [e["text"] for e in mine["log"]][
                -len(back.json()["log"]) :
            ]
            undone = True
            client.post(
                f"/api/games/{game_id}/actions",
                json={"action": pick, "version": back.json()["version"]},
                headers=seat_header(keys[seat]),
            )
    assert undone and refused


def test_the_event_stream_sends_each_seat_its_own_view(client: TestClient) -> None:
    made = new_game(client, "meio", ["human", "human"])
    game_id, keys = made["id"], keys_of(made)
    for key in [None, *keys.values()]:
        headers = seat_header(key) if key else {}
        with client.stream("GET", f"/api/games/{game_id}/events", headers=headers) as events:
            assert events.status_code == 200
            assert events.headers["content-type"].startswith("text/event-stream")
            text = ""
            for line in events.iter_lines():
                text += line + "\n"
                if not line and "event: view" in text:
                    break
        (first,) = sse_views(text)
        assert first["you"] == (None if key is None else next(s for s, k in keys.items() if k == key))
        for other in keys.values():
            if other != key:
                assert other not in text


def test_the_record_before_and_after_the_end(client: TestClient, tmp_path: Any) -> None:
    from cardbase.cli.app import app as cli_app

    made = new_game(client, "meio", ["human", "heuristic"], seed=5)
    game_id, keys = made["id"], keys_of(made)
    settle(client, game_id)
    assert client.get(f"/api/games/{game_id}/record").status_code == 403
    so_far = client.get(f"/api/games/{game_id}/record", headers=seat_header(keys[0]))
    assert so_far.status_code == 200 and '"unfinished": true' in so_far.text
    assert "attachment" in so_far.headers["content-disposition"]
    # play to the end, always the first legal action
    while (data := view(client, game_id, keys[0]))["status"] == "playing":
        client.post(
            f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=seat_header(keys[0])
        )
        settle(client, game_id)
    assert data["status"] == "over" and data["seed"] == 5 and data["outcome"]["winners"]
    record = client.get(f"/play/{game_id}/record")  # anyone's, now
    assert record.status_code == 200 and record.text.startswith('{"record": "cardbase.game"')
    path = tmp_path / "game.jsonl"
    path.write_text(record.text, encoding="utf-8")
    replayed = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    (game,) = json.loads(replayed.stdout)
    assert game["finished"] and game["outcome"]["winners"] == data["outcome"]["winners"]
    assert game["actions"] == data["log"][-1]["n"]


def test_a_new_server_over_the_database_resumes_the_game(make_client: MakeClient) -> None:
    first = make_client()
    made = new_game(first, "meio", ["human", "heuristic", "human"], seed=8)
    game_id, keys = made["id"], keys_of(made)
    for _ in range(4):
        settle(first, game_id)
        data = view(first, game_id)
        key = keys[data["current_player"]]
        first.post(
            f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=seat_header(key)
        )
    settle(first, game_id)
    before = {s: view(first, game_id, k) for s, k in keys.items()}
    hall(first).close()
    second = make_client()
    for seat, key in keys.items():
        after = view(second, game_id, key)
        assert (after["version"], after["text"], after["log"]) == (
            before[seat]["version"],
            before[seat]["text"],
            before[seat]["log"],
        )
    data = view(second, game_id)
    key = keys[data["current_player"]]
    go_on = second.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=seat_header(key)
    )
    assert go_on.status_code == 200


def test_the_bound_on_games_and_the_idle_expiry(make_client: MakeClient) -> None:
    client = make_client(max_games=1)
    made = new_game(client, "meio", ["human", "human"])
    full = client.post("/api/games", json={"game": "meio", "players": 2})
    assert full.status_code == 503 and "bound of 1" in error_of(full) and full.headers["retry-after"]
    tables = hall(client)
    later = tables.clock() + tables.idle_seconds + 1
    tables.clock = lambda: later
    assert tables.sweep(force=True) == [made["id"]]
    gone = view(client, made["id"], keys_of(made)[0])
    assert gone["status"] == "abandoned" and gone["legal"] == []
    refused = client.post(
        f"/api/games/{made['id']}/actions",
        json={"id": 0, "version": gone["version"]},
        headers=seat_header(keys_of(made)[0]),
    )
    assert refused.status_code == 409 and "abandoned" in error_of(refused)  # the table's state, not the seat's rights
    assert refused.json()["error"]["rule"] == "abandoned"
    assert client.get(f"/api/games/{made['id']}/record").status_code == 200  # kept, with its record
    assert client.post("/api/games", json={"game": "meio", "players": 2}).status_code == 201


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"game": "chess"}, "no game 'chess'"),
        ({"game": "meio", "players": 5}, "2 to 4 players"),
        ({"game": "meio", "seats": [{"agent": "human"}, {"agent": "wizard"}]}, "unknown Meio agent 'wizard'"),
        ({"game": "meio", "seats": [{"agent": "human"}, {"agent": "ismcts:iters=9000"}]}, "at most 4,000 iterations"),
        ({"game": "meio", "players": 2, "rules": {"rounds": "many"}}, "rounds"),
        ({"game": "meio", "players": 2, "rules": {"colour": "red"}}, "colour"),
        ({"game": "meio", "players": 2, "seed": 2**64}, "seed"),
        ({"game": "meikyu", "players": 2, "assume": "../../etc/passwd"}, "no assumption profile"),
        ({"game": "mea", "players": 2}, "two decks"),
        ({"game": "mea", "players": 2, "decks": [99999, 99998]}, "no deck"),
    ],
)
def test_bad_choices_are_refused_with_one_line(client: TestClient, body: dict[str, Any], said: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code in (400, 404), response.text
    assert said in error_of(response)


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ({"nope": ""}, "rules option 'nope': not a Meio rules option"),  # was dropped unseen: the default
        ({"": ""}, "rules option '': not a Meio rules option"),
        ({"players": ""}, "rules option 'players': not a Meio rules option"),
        ({"a=b": "c"}, "rules option 'a=b'"),  # was read as option 'a'
        ({"x" * 100_000: "y" * 300}, "rules option 'xxx"),  # the whole name was sent back
        ({"rounds": True}, "rules option rounds: 'true' is not a whole number"),  # it said --rule; then 'yes'
    ],
)
def test_a_rules_option_the_game_lacks_is_refused_by_name_cut(
    client: TestClient, rules: dict[str, Any], said: str
) -> None:
    """A table's rules name only the game's options, even with an empty value (the form's 'the
    default'); the refusal names the option as the API calls it, quoted and cut."""
    response = client.post("/api/games", json={"game": "meio", "players": 3, "rules": rules})
    assert response.status_code == 400, response.text
    message = error_of(response)
    assert said in message and "--rule" not in message
    assert len(message) < 500, len(message)
    assert client.get("/api/games").json() == []


def test_an_invalid_mea_deck_is_refused_with_its_problems(client: TestClient) -> None:
    broken = (Path(__file__).resolve().parents[2] / "examples/decks/mea-broken.txt").read_text(encoding="utf-8")
    response = client.post("/api/games", json={"game": "mea", "decks": [{"text": broken}, {"text": broken}]})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["problems"]
    page = client.post(
        "/play",
        data={"game": "mea", "players": "2", "seat0": "human", "seat1": "heuristic", "deck0": "paste",
              "deck0_text": broken, "deck1": "example:mea-tile-control.txt"},
    )  # fmt: skip
    assert page.status_code == 400 and 'class="problems"' in page.text


def test_a_meikyu_catalog_that_lacks_values_is_refused_with_each_of_them(client: TestClient) -> None:
    """Without a profile the catalog lacks values the rules need: the start page names each of them (the
    card and the field, as ``sim meikyu`` lists them), not only how many, so an owner knows what to enter."""
    page = client.post(
        "/play",
        data={"game": "meikyu", "players": "2", "seat0": "human", "seat1": "heuristic", "assume": ""},
    )
    assert page.status_code == 400, page.text[:300]
    assert "cannot play Meikyu Kingdom: the catalog lacks" in page.text
    problems = page.text.split('class="problems"', 1)[1].split("</ul>", 1)[0]
    assert "Cook (character): bravery, wits, copies" in problems, problems[:500]


def test_the_start_page_and_a_game_played_by_its_forms(client: TestClient) -> None:
    for game in ("mea", "meio", "meikyu"):
        page = client.get(f"/play?game={game}")
        assert page.status_code == 200 and 'action="/play"' in page.text
    assert "ASSUMED VALUES" in client.get("/play?game=meikyu").text
    started = client.post(
        "/play", data={"game": "meio", "players": "3", "seat0": "human", "seat1": "heuristic", "seat2": "random"},
        follow_redirects=False,
    )  # fmt: skip
    assert started.status_code == 303, started.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    settle(client, game_id)
    page = client.get(f"/play/{game_id}")
    assert "Your move" in page.text and 'name="action_id"' in page.text
    version = re.search(r'name="version" value="(\d+)"', page.text)
    assert version is not None
    moved = client.post(
        f"/play/{game_id}/act", data={"action_id": "0", "version": version.group(1)}, follow_redirects=False
    )
    assert moved.status_code == 303
    stale = client.post(f"/play/{game_id}/act", data={"action_id": "0", "version": version.group(1)})
    assert stale.status_code == 409 and "moved on" in stale.text and 'class="error"' in stale.text
    # a page of another site posting with this browser's cookie: refused before it reaches the table
    settle(client, game_id)
    before = view(client, game_id)
    forged = client.post(
        f"/play/{game_id}/act",
        data={"action_id": "0", "version": str(before["version"])},
        headers={"Origin": "http://evil.example"},
    )
    assert forged.status_code == 403
    after = view(client, game_id)
    assert (after["version"], after["log"]) == (before["version"], before["log"])


def test_the_start_page_offers_a_reading_as_a_list_of_its_words(client: TestClient) -> None:
    """A rules option that takes one of a few words is a select of them, its default marked and
    chosen; the word chosen reaches the table."""
    page = client.get("/play?game=meikyu").text
    select = re.search(r'<select name="rule_amulet_ask">(.*?)</select>', page)
    assert select is not None, "amulet_ask is not offered as a list"
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]*)</option>', select.group(1))
    assert options == [("holders", " selected", "holders (default)"), ("everyone", "", "everyone")]
    mea = client.get("/play?game=mea").text
    assert re.search(r'<select name="rule_adjacency"><option value="orthogonal" selected>', mea)
    assert '<input name="rule_max_turns"' in mea  # a number stays a field
    started = client.post(
        "/play",
        data={"game": "meikyu", "players": "2", "seat0": "human", "seat1": "random", "assume": "default",
              "rule_amulet_ask": "everyone", "rule_casino": "every"},
        follow_redirects=False,
    )  # fmt: skip
    assert started.status_code == 303, started.text
    rules = hall(client).get(started.headers["location"].rsplit("/", 1)[1]).table.rules
    assert (rules.amulet_ask, rules.casino, rules.grimoire) == ("everyone", "every", "one")


def test_hot_seat_hides_the_hand_until_the_next_player_confirms(client: TestClient) -> None:
    started = client.post(
        "/play", data={"game": "meio", "players": "2", "seat0": "human", "seat1": "human", "hotseat": "1"},
        follow_redirects=False,
    )  # fmt: skip
    assert started.status_code == 303
    game_id = started.headers["location"].rsplit("/", 1)[1]
    data = view(client, game_id)  # the cookie holds both keys; the API picks the seat to move
    seat = data["current_player"]
    assert data["you"] == seat
    handoff = client.get(f"/play/{game_id}")
    assert 'id="handoff"' in handoff.text and "Your hand" not in handoff.text
    shown = client.get(f"/play/{game_id}?seat={seat}")
    assert "Your hand" in shown.text and 'id="handoff"' not in shown.text
    version = re.search(r'name="version" value="(\d+)"', shown.text)
    assert version is not None
    moved = client.post(
        f"/play/{game_id}/act", data={"seat": str(seat), "action_id": "0", "version": version.group(1)},
        follow_redirects=False,
    )  # fmt: skip
    assert moved.status_code == 303
    after = client.get(moved.headers["location"])
    nxt = 1 - seat
    assert 'id="handoff"' in after.text and f"Pass the device to P{nxt + 1}" in after.text
    assert "Your hand" not in after.text


def test_concurrent_moves_on_one_game_are_taken_one_at_a_time(database: Database, tmp_path: Path) -> None:
    """Two requests with the same move on the same view, at once, 20 times: one is taken, the
    other is stale, and what is stored is what the table holds."""
    import threading

    import httpx

    from cardbase.sim.table_store import load_game
    from cardbase.web.settings import ServerSettings
    from tests.web.live import live_server

    apps: list[Any] = []
    with live_server(ServerSettings(database=database, images=tmp_path / "card_images"), apps) as base:
        with httpx.Client(base_url=base, timeout=60) as http:
            made = http.post("/api/games", json={"game": "meio", "seats": [{"agent": "human"}] * 2})
            game_id = made.json()["id"]
            keys = {s["seat"]: s["key"] for s in made.json()["seats"]}
            for _ in range(20):
                data = http.get(f"/api/games/{game_id}").json()
                seat = data["current_player"]
                barrier = threading.Barrier(2)
                codes: list[int] = []

                def post(
                    data: dict[str, Any] = data,
                    seat: int = seat,
                    barrier: threading.Barrier = barrier,
                    codes: list[int] = codes,
                ) -> None:
                    with httpx.Client(base_url=base, timeout=60) as mine:
                        barrier.wait()
                        codes.append(
                            mine.post(
                                f"/api/games/{game_id}/actions",
                                json={"id": 0, "version": data["version"]},
                                headers=seat_header(keys[seat]),
                            ).status_code
                        )

                threads = [threading.Thread(target=post) for _ in range(2)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                assert sorted(codes) == [200, 409], codes
        table = apps[0].state.hall.get(game_id).table
        stored = load_game(database, game_id)
        assert stored is not None and stored.version == table.version == 20
        assert stored.actions == [text for _, text in table.texts()]


def test_an_agent_that_fails_stops_its_game_only(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in an agent: its game waits with one line saying so; the server and other games go on."""
    from cardbase.games.meio.agents import HeuristicAgent

    def broken(self: Any, observation: Any, legal: Any) -> Any:
        raise RuntimeError("the agent broke")

    monkeypatch.setattr(HeuristicAgent, "act", broken)
    stuck = new_game(client, "meio", ["heuristic", "human"])
    settle(client, stuck["id"])
    data = view(client, stuck["id"])
    assert data["status"] == "playing" and any("internal error" in note for note in data["notes"])
    fine = new_game(client, "meio", ["random", "human"])
    settle(client, fine["id"])
    assert view(client, fine["id"], keys_of(fine)[1])["legal"]


def test_a_game_idle_past_the_expiry_is_not_resumed(make_client: MakeClient, database: Database) -> None:
    from sqlalchemy import text

    first = make_client()
    made = new_game(first, "meio", ["human", "human"])
    hall(first).close()
    with database.transaction() as session:
        session.execute(text("UPDATE play_game SET updated_at = '2020-01-01T00:00:00+00:00'"))
    second = make_client(idle_hours=1)
    assert view(second, made["id"])["status"] == "abandoned"
    assert hall(second).active == 0


def _at_first_card(client: TestClient) -> tuple[str, dict[int, str], int]:
    """A two-person Meio game past both splits: (its id, the keys, the seat to play the first card)."""
    made = new_game(client, "meio", ["human", "human"], seed=5)
    game_id, keys = made["id"], keys_of(made)
    for _ in range(2):
        now = view(client, game_id, keys[0])
        seat = now["current_player"]
        moved = client.post(
            f"/api/games/{game_id}/actions", json={"id": 0, "version": now["version"]}, headers=seat_header(keys[seat])
        )
        assert moved.status_code == 200, moved.text
    return game_id, keys, view(client, game_id, keys[0])["current_player"]


def test_a_hint_is_for_the_seat_to_move_and_worked_out_once_per_position(client: TestClient, monkeypatch) -> None:
    from cardbase.sim import play

    game_id, keys, seat = _at_first_card(client)
    asked: list[int] = []
    real = play.hinter
    monkeypatch.setattr(play, "hinter", lambda *args: (asked.append(1), real(*args))[1])
    first = client.get(f"/api/games/{game_id}/hint", headers=seat_header(keys[seat]))
    assert first.status_code == 200, first.text
    text = first.json()["hint"]
    assert text.startswith("play ")
    again = client.get(f"/api/games/{game_id}/hint", headers=seat_header(keys[seat]))
    assert again.json()["hint"] == text and len(asked) == 1  # the same position: remembered
    other = client.get(f"/api/games/{game_id}/hint", headers=seat_header(keys[1 - seat]))
    assert other.status_code == 403 and "turn" in error_of(other)
    watcher = client.get(f"/api/games/{game_id}/hint")
    assert watcher.status_code == 403
    assert client.get(f"/play/{game_id}?key={keys[seat]}").status_code == 200  # the seat's cookie
    page = client.get(f"/play/{game_id}", params={"hint": 1})
    assert page.status_code == 200 and 'id="hint"' in page.text
    assert str(escape(text)) in page.text and len(asked) == 1  # as the page escapes it


def test_hints_past_the_servers_slots_are_answered_503_with_retry_after(client: TestClient, monkeypatch) -> None:
    from cardbase.sim import hall as hall_module

    game_id, keys, seat = _at_first_card(client)
    monkeypatch.setattr(hall_module, "HINT_WAIT_SECONDS", 0.05)
    slots = hall(client)._hint_slots
    taken = 0
    while slots.acquire(blocking=False):  # every slot busy with another hint
        taken += 1
    try:
        busy = client.get(f"/api/games/{game_id}/hint", headers=seat_header(keys[seat]))
    finally:
        for _ in range(taken):
            slots.release()
    assert taken >= 1 and busy.status_code == 503 and busy.headers["Retry-After"]
    assert "other hints" in error_of(busy)
    assert client.get(f"/api/games/{game_id}/hint", headers=seat_header(keys[seat])).status_code == 200


def test_a_meikyu_table_that_asks_everyone_about_amulets(client: TestClient) -> None:
    """``amulet_ask=everyone`` chosen at the table: after a die every seat is asked in turn, and a
    seat without an Amulet is offered only ``pass`` (so being asked tells the others nothing)."""
    made = new_game(client, "meikyu", ["human", "human"], rules={"amulet_ask": "everyone"}, seed=4)
    game_id, keys = made["id"], keys_of(made)
    table = hall(client).get(game_id).table
    assert table.rules.amulet_ask == "everyone" and "every player is asked after a die" in table.labels["rules"]
    asked: list[int] = []
    rng = random.Random(3)
    for _ in range(2000):
        state = table.state
        if state.is_terminal or (state.decision == "amulet" and len(asked) == 2):
            break
        seat = state.current_player
        data = view(client, game_id, keys[seat])
        if state.decision == "amulet":
            asked.append(seat)
            holds = any(card == "Amulet" for card in state.hand(seat))
            assert [a["text"] for a in data["legal"]] == (["amulet", "pass"] if holds else ["pass"]), data["legal"]
            choice = len(data["legal"]) - 1  # pass
        else:
            asked.clear()
            choice = rng.randrange(len(data["legal"]))
        moved = client.post(
            f"/api/games/{game_id}/actions",
            json={"id": choice, "version": data["version"]},
            headers=seat_header(keys[seat]),
        )
        assert moved.status_code == 200, moved.text
    assert asked == [state.turn_player, 1 - state.turn_player], asked


def meio_center(html: str) -> str:
    """The middle of a Meio board (what is on the table), as the page has it."""
    found = re.search(r'<div class="meio-center">(.*?)\n  </div>', html, re.S)
    assert found, html[:500]
    return found.group(1)


def test_a_finished_meio_game_shows_its_result_and_final_trick_not_an_empty_table(client: TestClient) -> None:
    """Once a Meio game was over its table still said "On the table" and "no card yet"; it says the
    game is over, who won with the totals, and the final trick, to the seat and to a spectator."""
    made = new_game(client, "meio", ["human", "random"], seed=11)
    game_id, keys = made["id"], keys_of(made)
    settle(client, game_id)
    while (data := view(client, game_id, keys[0]))["status"] == "playing":
        client.post(
            f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=seat_header(keys[0])
        )
        settle(client, game_id)
    board = data["view"]
    assert data["status"] == "over" and board["phase"] == "over" and not board["trick"] and board["last_trick"]
    (winner,) = board["outcome"]["winners"]

    def totals(seat: int | None) -> str:
        you = {seat: " (you)"}
        return ", ".join(f"P{p['seat'] + 1}{you.get(p['seat'], '')} {p['total']}" for p in board["players"])

    last = board["last_trick"]
    cards = [str(escape(e["card"]["label"])) for e in last["cards"]]
    for key, seat in ((keys[0], 0), (None, None)):
        you = " (you)" if winner == seat else ""
        page = client.get(f"/play/{game_id}", headers=seat_header(key) if key else {})
        assert page.status_code == 200
        center = meio_center(page.text)
        assert "no card yet" not in center and "On the table" not in center, center
        assert "<h3>Game over</h3>" in center
        # who won and why: once, in the page's status above the board (not again in the board)
        said = f"Game over</strong>. P{winner + 1}{you} won: {board['outcome']['reason']}."
        assert said in page.text and board["outcome"]["reason"] not in center, center
        assert f"Final totals: {totals(seat)} (lowest wins)." in center
        summary = f"Final trick (13 of 13, round {board['rounds']}): won by P{last['winner'] + 1}"
        assert summary in center and 'last-trick" open' in center
        shown = re.findall(r'<span class="face-name">([^<]*)</span>', center)
        assert shown == cards, (shown, cards)


def test_the_start_page_marks_a_yes_no_options_default_as_every_other_default(client: TestClient) -> None:
    """The rules options say "each shows its default": a yes/no option (Méa's list_losing_draws, off
    by default) marks its default word as a list of words does."""
    page = client.get("/play?game=mea").text
    select = re.search(r'<select name="rule_list_losing_draws">(.*?)</select>', page)
    assert select is not None
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]*)</option>', select.group(1))
    assert options == [("yes", "", "yes"), ("no", " selected", "no (default)")]


def test_a_kingdoms_land_marks_every_assumed_value_as_the_rooms_do(client: TestClient) -> None:
    """A land the assumption profile adds whole (an "Unnamed room") has an assumed level as well as
    assumed points: in a kingdom it reads ``2 pt* · L6*``, as a face-up room marks its level, never a
    bare ``L6`` that reads as a rulebook value."""
    made = new_game(client, "meikyu", ["heuristic", "heuristic"], seed=2)
    settle(client, made["id"])
    page = client.get(f"/play/{made['id']}").text  # the game is over: every kingdom shown
    lands = re.findall(r'<span class="land-name">([^<]*)</span>.*?<span class="land-pts">(.*?)</span>', page, re.S)
    unnamed = [pts for name, pts in lands if name.startswith("Unnamed room")]
    assert unnamed, lands  # seed 2: a kingdom holds one
    for pts in unnamed:
        assert re.search(r"(· L\d+<abbr class=\"assumed\"|developed)", pts), pts


def test_a_deck_with_a_card_of_unknown_stats_is_refused_with_a_remedy_the_page_offers(client: TestClient) -> None:
    """The table cannot play Selounticia (the rulebook gives no cost, attack or defence): the refusal
    says so and how to go on at the table, not with the command line's --drop-unknown."""
    deck = "game: mea\n18 Crumb Goblin\n1 Selounticia\n"
    body = {"game": "mea", "seats": [{"agent": "human"}, {"agent": "heuristic"}], "decks": [{"text": deck}] * 2}
    refused = client.post("/api/games", json=body)
    assert refused.status_code in (400, 422), refused.text
    said = " ".join(refused.json()["error"]["problems"])
    assert "Selounticia (core): unknown cost" in said
    assert "--drop-unknown" not in said and "remove it from the deck" in said


def test_a_number_option_whose_value_reads_oddly_says_what_it_means(client: TestClient) -> None:
    """A rules option whose default is 0 meaning "none" (Méa's tiles_per_colour, board_size) or a seat
    counted from 0 (Meio's first_player: 0 is P1) says so beside its field, not a bare 0."""
    mea = client.get("/play?game=mea").text
    for name, note in (
        ("tiles_per_colour", "0: no cap"),
        ("board_size", "0: the whole board"),
        ("tile_supply", "0: no limit"),
    ):
        field = re.search(rf'<input name="rule_{name}"[^>]*>\s*<span class="muted small">([^<]*)</span>', mea)
        assert field is not None and field.group(1) == note, name
    meio = client.get("/play?game=meio").text
    field = re.search(r'<input name="rule_first_player"[^>]*>\s*<span class="muted small">([^<]*)</span>', meio)
    assert field is not None and field.group(1) == "0 is P1, 1 is P2, …"


def test_the_end_of_a_mea_game_gives_its_scores_as_whole_tiles(client: TestClient) -> None:
    """Méa's outcome counts tiles (floats in :class:`Outcome`); the page wrote "P1 0.0, P2 9.0"."""
    made = new_game(client, "mea", ["heuristic", "heuristic"], seed=3)
    settle(client, made["id"])
    data = view(client, made["id"])
    assert data["status"] == "over"
    page = client.get(f"/play/{made['id']}").text
    tiles = ", ".join(f"P{i + 1} {int(s)}" for i, s in enumerate(data["outcome"]["scores"]))
    assert f"Scores: {tiles}." in page


def test_the_mea_board_says_that_drawing_ends_the_turn(client: TestClient) -> None:
    """Rule 37: drawing "signifies that your turn is done". The main phase's draw buttons sat under
    the hand as "draw 1 … draw 5" with nothing saying that they end the turn."""
    made = new_game(client, "mea", ["human", "heuristic"], seed=3)
    game_id, key = made["id"], keys_of(made)[0]
    opening = view(client, game_id, key)
    assert "Drawing ends your turn" not in client.get(f"/play/{game_id}", headers=seat_header(key)).text
    (draw5,) = [a for a in opening["legal"] if a["text"] == "draw 5"]
    body = {"id": draw5["id"], "version": opening["version"]}
    client.post(f"/api/games/{game_id}/actions", json=body, headers=seat_header(key))
    settle(client, game_id)
    data = view(client, game_id, key)
    assert data["current_player"] == 0 and data["view"]["phase"] == "main"
    page = client.get(f"/play/{game_id}", headers=seat_header(key)).text
    assert "Drawing ends your turn: at least 1 card (11 in your hand loses)." in page


def test_the_mea_start_form_offers_the_deck_built_last_as_p1s(client: TestClient, database: Database) -> None:
    """A player who has built Méa decks finds P1's deck set to the one edited last, not an example
    (the examples stay in the list, and P2 keeps an example opponent)."""
    from sqlalchemy import text

    from cardbase.db.queries import find_card
    from cardbase.decks.store import add_card, new_deck

    def chosen(page: str, seat: int) -> str:
        select = re.search(rf'<select name="deck{seat}" class="deck-source">(.*?)</select>', page, re.S)
        assert select is not None
        return re.findall(r'<option value="([^"]+)" selected>', select.group(1))[0]

    assert chosen(client.get("/play?game=mea").text, 0).startswith("example:")  # no deck of the player's yet
    from tests.web.browser.test_flows import MEA_TWENTY

    first = new_deck(database, "first deck", "mea")
    second = new_deck(database, "second deck", "mea")
    with database.session() as session:
        cards = [find_card(session, name, "mea") for name in MEA_TWENTY]
    for deck in (second, first):  # the first edited last: the other was edited long ago (no two in one second)
        for card in cards:
            add_card(database, deck, card, 4)  # 20 cards: a deck that plays
    with database.transaction() as session:
        session.execute(text("UPDATE deck SET updated_at = '2001-01-01T00:00:00+00:00' WHERE id = :id"), {"id": second})
    page = client.get("/play?game=mea").text
    assert chosen(page, 0) == f"db:{first}", chosen(page, 0)
    assert chosen(page, 1).startswith("example:") and 'value="example:mea-goblin-rush.txt"' in page


def test_a_cards_preview_at_a_meikyu_table_shows_the_tables_values_marked_assumed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tapping Cook at a table on the default profile shows Bravery 1 and Wits 1 marked ASSUMED, as
    the table plays it (``1*/1*``), not the catalog's ``?``; the board's faces and previews ask for it."""
    import cardbase.render.screen as screen
    from cardbase.render.values import face_values

    drawn: list[dict[str, Any]] = []
    real = screen.screen_png

    def spy(card: Any, width: int, *args: Any, **kw: Any) -> bytes:
        drawn.append(face_values(card, kw.get("assumed"), kw.get("profile", "")))
        return real(card, width, *args, **kw)

    monkeypatch.setattr(screen, "screen_png", spy)
    made = new_game(client, "meikyu", ["heuristic", "heuristic"], seed=2)
    settle(client, made["id"])
    page = client.get(f"/play/{made['id']}").text
    previews = re.findall(r'data-preview="([^"]+)"', page)
    assert previews and all(p.startswith(f"/play/{made['id']}/cards/meikyu/") for p in previews), previews[:3]
    answer = client.get(f"/play/{made['id']}/cards/meikyu/core/cook/image.png?w=300")
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    cook = drawn[-1]
    assert (cook["bravery"], cook["wits"]) == ("1", "1"), cook
    assert cook["assumed"] == "bravery, wits" and "ASSUMED" in cook["footer"] and "default profile" in cook["footer"]
    catalog = client.get("/cards/meikyu/core/cook/image.png?w=300")
    assert catalog.status_code == 200 and drawn[-1]["bravery"] == "?"  # the catalog's own face is unchanged


def test_the_mea_start_form_offers_playable_decks_first_and_marks_invalid_ones(
    client: TestClient, database: Database
) -> None:
    """A work-in-progress deck edited last (too few cards) is not P1's default: the default is the
    playable deck edited last; the invalid decks (that one; the broken example is not offered) come after the
    playable ones, each marked with its problem count, and the default form starts a game."""
    from sqlalchemy import text

    from cardbase.db.queries import find_card
    from cardbase.decks.store import add_card, new_deck
    from tests.web.browser.test_flows import MEA_TWENTY

    ready = new_deck(database, "ready deck", "mea")
    with database.session() as session:
        cards = {name: find_card(session, name, "mea") for name in MEA_TWENTY}
    for card in cards.values():
        add_card(database, ready, card, 4)
    with database.transaction() as session:
        session.execute(text("UPDATE deck SET updated_at = '2001-01-01T00:00:00+00:00' WHERE id = :id"), {"id": ready})
    draft = new_deck(database, "draft deck", "mea")
    add_card(database, draft, cards[MEA_TWENTY[0]], 1)  # edited last, and far from a deck
    page = client.get("/play?game=mea").text
    select = re.search(r'<select name="deck0" class="deck-source">(.*?)</select>', page, re.S)
    assert select is not None
    options = re.findall(r'<option value="([^"]+)"( selected)?>([^<]*)</option>', select.group(1))
    assert [v for v, s, _ in options if s] == [f"db:{ready}"]
    labels = {v: label for v, _, label in options}
    assert "invalid" in labels[f"db:{draft}"] and "example:mea-broken.txt" not in labels  # broken on purpose
    assert "invalid" not in labels[f"db:{ready}"] and "invalid" not in labels["example:mea-goblin-rush.txt"]
    order = [v for v, _, _ in options]
    assert order.index(f"db:{draft}") > order.index("example:mea-goblin-rush.txt")  # the playable ones first
    assert order.index(f"db:{draft}") > order.index(f"db:{ready}")
    chosen = r'<select name="(deck\d)" class="deck-source">.*?<option value="([^"]+)" selected>'
    form = dict(re.findall(chosen, page, re.S))
    started = client.post(
        "/play",
        data={"game": "mea", "players": "2", "seat0": "human", "seat1": "heuristic", **form},
        follow_redirects=False,
    )
    assert started.status_code == 303, started.text[:2000]


def test_a_view_of_a_version_the_table_has_not_reached_says_what_to_send(client: TestClient) -> None:
    """A version ahead of the table's is not 'moved on': the refusal says the table has no such version
    and what to do (reload and send the version the view gives); 409 as a stale view."""
    made = new_game(client, "meio", ["human", "human"])
    game_id, keys = made["id"], keys_of(made)
    first = view(client, game_id, keys[0])
    mover = keys[first["current_player"]]
    ahead = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": first["version"] + 5}, headers=seat_header(mover)
    )
    assert ahead.status_code == 409, ahead.text
    said = error_of(ahead)
    assert "moved on" not in said and f"no version {first['version'] + 5}" in said, said
    assert "reload the view and send the version it gives" in said, said
    moved = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": first["version"]}, headers=seat_header(mover)
    )
    assert moved.status_code == 200, moved.text
    behind = client.post(
        f"/api/games/{game_id}/actions", json={"id": 0, "version": first["version"]}, headers=seat_header(mover)
    )
    assert behind.status_code == 409 and "moved on" in error_of(behind)
    assert "reload the view and send the version it gives" in error_of(behind)


def test_every_play_route_refuses_a_finished_game_as_a_conflict(client: TestClient) -> None:
    """A move, an undo or a hint asked of a game that is over is refused by the table's state (409
    Conflict, rule ``game-over``), not by the seat's rights (403): the same on the API and the page."""
    made = new_game(client, "meio", ["human", "heuristic"], seed=5, rules={"rounds": 1})
    game_id, keys = made["id"], keys_of(made)
    settle(client, game_id)
    while (data := view(client, game_id, keys[0]))["status"] == "playing":
        client.post(
            f"/api/games/{game_id}/actions", json={"id": 0, "version": data["version"]}, headers=seat_header(keys[0])
        )
        settle(client, game_id)
    assert data["status"] == "over" and data["undo"] is False
    key, version = seat_header(keys[0]), {"version": data["version"]}
    routes = {
        "act": client.post(f"/api/games/{game_id}/actions", json={"id": 0, **version}, headers=key),
        "undo": client.post(f"/api/games/{game_id}/undo", json=version, headers=key),
        "hint": client.get(f"/api/games/{game_id}/hint", headers=key),
    }
    for route, answer in routes.items():
        assert answer.status_code == 409, (route, answer.text)
        error = answer.json()["error"]
        assert error["rule"] == "game-over" and "the game is over" in error["message"], (route, error)
    client.cookies.clear()
    page = client.post(f"/play/{game_id}/act", data={"action_id": "0", "version": str(data["version"])}, headers=key)
    assert page.status_code == 409 and "the game is over" in page.text, page.text[:500]
