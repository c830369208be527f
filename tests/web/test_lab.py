"""The deck lab page and its API (``/decks/ID/lab``, ``/api/decks/ID/lab``): the CLI's studies over a
saved deck, their refusals named at their fields, the time budget and the lab slot answered 503."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from cardbase.lab import service
from cardbase.lab.common import Rate
from cardbase.web import lab as web_lab
from tests.web.conftest import error_of, new_deck

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"
TILE = "example:mea-tile-control.txt"


def import_rush(client: TestClient, name: str = "Rush") -> int:
    text = (EXAMPLES / "mea-goblin-rush.txt").read_text(encoding="utf-8")
    response = client.post("/api/decks/import", json={"text": text, "name": name})
    assert response.status_code == 201, response.text
    deck_id: int = response.json()["id"]
    return deck_id


def cells(html: str, table_id: str) -> list[list[str]]:
    """The rows of the table ``table_id`` (its body), each cell's text with its lines joined by a space."""
    table = html[html.index(f'<table id="{table_id}"') :]
    body = table[table.index("<tbody>") : table.index("</tbody>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    out = []
    for row in rows:
        found = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        out.append([" ".join(unescape(re.sub(r"<br>", " ", re.sub(r"<(?!br>)[^>]+>", "", c))).split()) for c in found])
    return out


def test_the_lab_page_shows_what_the_cli_gauntlet_and_opening_show(client: TestClient, cli: Callable[..., Any]) -> None:
    deck_id = import_rush(client)
    page = client.get(f"/decks/{deck_id}")
    assert f'href="/decks/{deck_id}/lab"' in page.text  # reached from the deck's page
    response = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "6", "seed": "3"})
    assert response.status_code == 200, response.text
    tile = str(EXAMPLES / "mea-tile-control.txt")
    common = ["--games", "6", "--seed", "3", "-j", "1", "--json"]
    gauntlet = cli("lab", "gauntlet", "db:Rush", "--field", tile, *common)
    opening = cli("lab", "opening", "db:Rush", "--vs", tile, *common)
    rows = cells(response.text, "gauntlet-table")
    (m,) = gauntlet["matchups"]
    assert rows[0][:2] == [m["opponent"], f"{m['wins']}/{m['games']}"]
    assert rows[-1][:2] == ["overall", f"{gauntlet['overall']['wins']}/{gauntlet['overall']['games']}"]
    for cell, rate in ((rows[0][2], m), (rows[0][3], m["going_first"]), (rows[0][4], m["going_second"])):
        assert cell == " ".join(Rate(rate["wins"], rate["games"]).shown()) if rate["games"] else cell == "—"
    assert "%" in rows[0][2] and "–" in rows[0][2]  # the rate, its interval under it
    sizes = cells(response.text, "opening-table")
    assert [r[1] for r in sizes] == [f"{s['wins']}/{s['games']}" for s in opening["sizes"]]
    assert sizes[opening["best"]["size"] - 1][0].endswith("←")
    verdict = unescape(re.search(r'id="opening-verdict"[^>]*><strong>(.*?)</strong>', response.text, re.S)[1])
    assert ("no size is clearly best" in verdict) == (not opening["best"]["clear"])
    notes = response.text[response.text.index('id="lab-notes"') :]
    assert "demo set, not published Méa cards" in unescape(notes[: notes.index("</ul>")])  # the label the CLI shows
    assert "cardbase lab gauntlet" in response.text and "--games 6 --seed 3" in response.text

    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 6, "seed": 3})
    assert api.status_code == 200, api.text
    data = api.json()
    for key in ("overall", "matchups", "cards"):  # one service, two faces: the CLI's objects
        strip = (lambda x: x) if key != "matchups" else (lambda ms: [{**x, "file": None} for x in ms])
        assert strip(data["gauntlet"][key]) == strip(gauntlet[key])
    assert data["opening"]["sizes"] == opening["sizes"] and data["opening"]["best"] == opening["best"]
    assert data["opening"]["verdict"] == verdict
    assert any("demo" in n for n in data["notes"])


def test_the_field_offers_the_other_mea_decks_and_the_examples_and_plays_a_saved_one(client: TestClient) -> None:
    deck_id = import_rush(client)
    other = import_rush(client, "Other rush")
    meio = new_deck(client, "Hand", "meio")
    form = client.get(f"/decks/{deck_id}/lab").text
    offered = re.findall(r'name="against" value="([^"]+)"', form)
    assert f"deck:{other}" in offered and TILE in offered
    assert f"deck:{deck_id}" not in offered and f"deck:{meio}" not in offered  # not itself, not another game's
    assert not any("broken" in key for key in offered)  # the refused example plays no one
    checked = re.findall(r'name="against" value="([^"]+)" checked', form)
    assert checked and all(key.startswith("example:") for key in checked)  # a first visit: the examples
    response = client.get(
        f"/decks/{deck_id}/lab", params={"run": "1", "against": f"deck:{other}", "vs": TILE, "games": "4"}
    )
    assert response.status_code == 200, response.text
    assert cells(response.text, "gauntlet-table")[0][0] == "Other rush"
    assert "against Tile Control" in response.text  # the opening's own opponent


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"games": "1"}, "games", "from 2 to 1,000, not '1'"),
        ({"games": "5000"}, "games", "from 2 to 1,000, not '5000'"),
        ({"games": "ten"}, "games", "not 'ten'"),
        ({"seed": "-3"}, "seed", "not '-3'"),
        ({"against": None}, "against", "choose at least one deck to play against"),
        ({"against": "example:nope.txt"}, "against", "no example deck 'nope.txt'"),
        ({"against": "deck:999999"}, "against", "no deck with id 999999"),
        ({"vs": "nonsense"}, "vs", "choose one of the decks listed"),
        ({"vs": "deck:999999"}, "vs", "no deck with id 999999"),
        # past a 32-bit key: PostgreSQL refused the query ("database error: integer out of range", 503)
        ({"against": "deck:9999999999"}, "against", "no deck with id 9999999999"),
        ({"vs": "deck:9999999999"}, "vs", "no deck with id 9999999999"),
    ],
)
def test_a_refused_value_is_named_at_its_field_and_the_typed_values_stay(
    client: TestClient, params: dict[str, str | None], field: str, words: str
) -> None:
    deck_id = import_rush(client)
    sent = {"run": "1", "against": TILE, "games": "4", "seed": "7", "vs": ""} | params
    response = client.get(f"/decks/{deck_id}/lab", params={k: v for k, v in sent.items() if v is not None})
    assert response.status_code == 400, response.text  # a bad value of a field, not a page not there
    html = unescape(response.text)
    said = re.search(rf'<p id="{field}-error" class="error field-error" role="alert">(.*?)</p>', html, re.S)
    assert said is not None and words in said[1], html[html.find("<main") :][:2000]
    assert 'id="lab-results"' not in html and "Traceback" not in html
    for name in ("games", "seed"):  # what was typed, kept
        assert f'name="{name}" inputmode="numeric" size="{6 if name == "games" else 10}" value="{sent[name]}"' in html
    if sent["against"] is not None:  # the decks chosen, kept chosen
        assert f'value="{sent["against"]}" checked' in html or sent["against"] != TILE


def test_the_api_names_the_refused_parameter(client: TestClient) -> None:
    deck_id = import_rush(client)
    for params, field in (
        ({"against": TILE, "games": 1}, "games"),
        ({"against": "example:nope.txt"}, "against"),
        ({"against": TILE, "vs": "elsewhere"}, "vs"),
        ({"against": TILE, "vs": "deck:999999"}, "vs"),
        ({"against": "deck:999999"}, "against"),
        ({}, "against"),
    ):
        response = client.get(f"/api/decks/{deck_id}/lab", params=params)
        assert response.status_code == 400, response.text
        assert response.json()["error"].get("field") == field and error_of(response)


def test_an_unplayable_deck_to_play_against_is_named_by_its_name(client: TestClient) -> None:
    deck_id = import_rush(client)
    empty = new_deck(client, "Empty shelf")
    for params in ({"against": f"deck:{empty}"}, {"against": TILE, "vs": f"deck:{empty}"}):
        response = client.get(f"/api/decks/{deck_id}/lab", params=params)
        assert response.status_code == 400, response.text
        said = error_of(response)
        assert "'Empty shelf'" in said and f"deck:{empty}" not in said, said


def test_a_run_past_its_time_budget_is_a_worded_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    deck_id = import_rush(client)
    monkeypatch.setattr(service, "RUN_SECONDS", 0.0)  # over budget after the first chunk of games
    response = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "100"})
    assert response.status_code == 503
    said = unescape(re.search(r'<p id="lab-error" class="error" role="alert">(.*?)</p>', response.text, re.S)[1])
    assert "stopped after 0 s" in said and "choose fewer games" in said
    assert 'value="100"' in response.text  # the form kept, to choose fewer
    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 100})
    assert api.status_code == 503 and "stopped after" in error_of(api)


def test_a_run_that_finds_the_lab_busy_is_a_worded_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    deck_id = import_rush(client)
    monkeypatch.setattr(web_lab, "SLOT_WAIT_SECONDS", 0.0)
    state = client.app.state  # type: ignore[attr-defined]
    free = state.lab_slots
    state.lab_slots = anyio.Semaphore(0)  # another run holds the one slot
    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 4})
    page = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "4"})
    state.lab_slots = free
    assert api.status_code == 503 and "another lab run is under way" in error_of(api)
    assert page.status_code == 503 and "another lab run is under way" in page.text
    assert client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 4}).status_code == 200


def test_a_deck_not_there_or_of_another_game_is_answered_at_once_while_the_lab_is_busy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a run would refuse anyway is not told "busy": a missing deck is its 404, a deck of another
    game its sentence, whether or not another run holds the slot (they were a 503 after the wait)."""
    other = new_deck(client, "Other", "meio")
    monkeypatch.setattr(web_lab, "SLOT_WAIT_SECONDS", 0.0)
    state = client.app.state  # type: ignore[attr-defined]
    free = state.lab_slots
    state.lab_slots = anyio.Semaphore(0)  # another run holds the one slot
    try:
        missing_api = client.get("/api/decks/987654/lab", params={"against": TILE, "games": 4})
        missing_page = client.get("/decks/987654/lab", params={"run": "1", "against": TILE, "games": "4"})
        other_api = client.get(f"/api/decks/{other}/lab", params={"against": TILE, "games": 4})
        other_page = client.get(f"/decks/{other}/lab", params={"run": "1", "games": "4"})
    finally:
        state.lab_slots = free
    assert missing_api.status_code == 404 and "987654" in error_of(missing_api)
    assert missing_page.status_code == 404 and "987654" in missing_page.text
    assert other_api.status_code == 400 and error_of(other_api).startswith("The lab's")
    assert other_page.status_code == 200 and 'id="lab-nothing"' in other_page.text


@pytest.mark.parametrize("game", ["meio", "meikyu"])
def test_a_deck_of_another_game_is_told_why_the_lab_has_nothing_yet(client: TestClient, game: str) -> None:
    deck_id = new_deck(client, "Other", game)
    page = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "games": "4"})
    assert page.status_code == 200
    said = unescape(re.search(r'<p id="lab-nothing"[^>]*>(.*?)</p>', page.text, re.S)[1])
    assert said == service.NOTHING_YET[game] and "nothing to run" in said
    assert 'id="lab-form"' not in page.text
    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE})
    assert api.status_code == 400 and error_of(api).startswith("The lab's")


def test_an_empty_deck_is_refused_in_words_not_a_500(client: TestClient) -> None:
    deck_id = new_deck(client, "Empty")
    response = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "4"})
    assert response.status_code == 400
    assert 'id="lab-error"' in response.text and "this deck" in unescape(response.text)


def test_a_run_when_the_server_stops_ends_at_its_next_chunk_in_words(client: TestClient) -> None:
    deck_id = import_rush(client)
    client.app.state.lab_stop.set()  # type: ignore[attr-defined]  # what `cardbase serve` does on Ctrl-C
    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "games": 100})
    assert api.status_code == 503 and error_of(api).startswith("the server is stopping: the lab run stopped with")


@pytest.mark.parametrize("listed", [service.FIELD_DECKS_LISTED, 0], ids=["itself", "a deck past the list"])
def test_the_terminal_command_names_every_deck_played_by_its_name(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, listed: int
) -> None:
    """`db:NAME` names a deck at the terminal by its name: a deck played that the form does not list
    (the deck itself, typed in the address; one past the first FIELD_DECKS_LISTED) was written as
    `db:<its id>`, another deck's name or none."""
    deck_id = import_rush(client, "Rush")
    other = import_rush(client, "Other rush")
    monkeypatch.setattr(service, "FIELD_DECKS_LISTED", listed)
    against = f"deck:{deck_id}" if listed else f"deck:{other}"
    named = "db:Rush" if listed else "'db:Other rush'"
    response = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": against, "games": "2"})
    assert response.status_code == 200, response.text
    commands = unescape(re.search(r'<pre class="lab-commands"><code>(.*?)</code>', response.text, re.S)[1])
    assert f"--field {named} --games 2" in commands and f"--vs {named} --games 2" in commands, commands


def test_the_form_says_how_many_decks_it_does_not_list(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The field lists the first FIELD_DECKS_LISTED other Méa decks by name: the others were left out
    unseen; the form now says how many."""
    deck_id = import_rush(client, "Rush")
    for name in ("Alpha", "Beta", "Gamma"):
        import_rush(client, name)
    monkeypatch.setattr(service, "FIELD_DECKS_LISTED", 1)
    form = client.get(f"/decks/{deck_id}/lab").text
    said = unescape(re.search(r'<p id="lab-unlisted" class="help">(.*?)</p>', form, re.S)[1])
    assert said == "Not listed: 2 more Méa decks (the list shows the first 1 by name).", said
    assert re.findall(r'name="against" value="deck:\d+"', form) and "Alpha" in form and "Beta" not in form
    monkeypatch.setattr(service, "FIELD_DECKS_LISTED", 50)
    assert 'id="lab-unlisted"' not in client.get(f"/decks/{deck_id}/lab").text


def _percent(text: str) -> float:
    return float(text.rstrip("%").replace("+", ""))


def _check_rate(cell: str, games: int, rate: float | None, ci: list[float | None]) -> None:
    """A cell of a rate as the page shows it against the service's figures: unknown (no games) as
    ``—``, else the rate to within its shown digits and an interval no narrower than the service's."""
    if games == 0:
        assert rate is None and cell == "—", cell  # unknown, shown as unknown: not 0%, not nan
        return
    assert rate is not None and ci[0] is not None and ci[1] is not None
    value, interval = cell.split(" ")
    low, high = interval.split("–")
    digits = len(value.rstrip("%").partition(".")[2])
    assert abs(_percent(value) - 100 * rate) <= 0.5 * 10**-digits + 1e-9, (cell, rate)
    assert _percent(low) <= 100 * ci[0] + 1e-9 and _percent(high) >= 100 * ci[1] - 1e-9, (cell, ci)


def test_the_per_card_table_shows_the_clis_figures_and_unknown_as_unknown(
    client: TestClient, cli: Callable[..., Any]
) -> None:
    deck_id = import_rush(client)
    response = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": TILE, "games": "2", "seed": "5"})
    assert response.status_code == 200, response.text
    tile = str(EXAMPLES / "mea-tile-control.txt")
    cards = cli("lab", "gauntlet", "db:Rush", "--field", tile, "--games", "2", "--seed", "5", "-j", "1", "--json")
    cards = cards["cards"]
    rows = cells(response.text, "cards-table")
    assert len(rows) == len(cards) > 0
    for row, card in zip(rows, cards, strict=True):
        assert row[0] == card["name"] + (" *" if card["too_few_games"] else ""), row
        assert row[1] == str(card["games_in_hand"])
        _check_rate(row[2], card["games_in_hand"], card["win_rate_in_hand"], card["win_rate_in_hand_ci"])
        _check_rate(row[3], card["games_not_drawn"], card["win_rate_not_drawn"], card["win_rate_not_drawn_ci"])
        _check_rate(row[5], card["games_in_opening"], card["win_rate_in_opening"], card["win_rate_in_opening_ci"])
        iwd = card["improvement_when_drawn"]
        if iwd is None:  # drawn in every game or in none: no difference to read
            assert row[4] == "—", row
        else:
            value, _, interval = row[4].partition(" ")
            low, high = (float(x) for x in interval.split(" to "))
            digits = len(value.partition(".")[2])
            assert abs(float(value) - 100 * iwd) <= 0.5 * 10**-digits + 1e-9, (row, iwd)
            ci = card["improvement_when_drawn_ci"]
            assert low <= 100 * ci[0] + 1e-9 and high >= 100 * ci[1] - 1e-9, (row, ci)
    # two games leave cards never drawn (or never in an opening): the unknown figures were checked above
    assert any(c["games_in_hand"] == 0 or c["games_in_opening"] == 0 for c in cards)
    assert "— unknown: no game to read it from" in unescape(response.text)


def test_a_mirror_match_names_each_deck_once_in_the_notes(client: TestClient) -> None:
    deck_id = import_rush(client, "Goblin Rush")
    for against in ([f"deck:{deck_id}"], [f"deck:{deck_id}", TILE], ["example:mea-goblin-rush.txt"]):
        api = client.get(f"/api/decks/{deck_id}/lab", params={"against": against, "games": 2})
        assert api.status_code == 200, api.text
        demo = [n for n in api.json()["notes"] if "demo set" in n]
        assert len(demo) == 1 and demo[0].count("Goblin Rush") == 1, demo  # one note, each deck once
        assert ("Tile Control" in demo[0]) == (TILE in against)
        page = client.get(f"/decks/{deck_id}/lab", params={"run": "1", "against": against, "games": "2"})
        notes = unescape(page.text[page.text.index('id="lab-notes"') :])
        notes = notes[: notes.index("</ul>")]
        assert notes.count("Goblin Rush") == 1 and notes.count("demo set") == 1, notes
    # the opening's own opponent, outside the field, joins the same note
    other = import_rush(client, "Other rush")
    api = client.get(f"/api/decks/{deck_id}/lab", params={"against": TILE, "vs": f"deck:{other}", "games": 2})
    (demo,) = [n for n in api.json()["notes"] if "demo set" in n]
    assert [demo.count(name) for name in ("Goblin Rush", "Tile Control", "Other rush")] == [1, 1, 1], demo


def test_a_deck_the_lab_would_refuse_is_offered_marked_and_not_choosable(client: TestClient) -> None:
    """Walking the lab: a 3-card deck of the player's was offered as an opponent like any other, and
    choosing it answered "Invalid value for 'Play against' … the deck has 3 cards". As on the play form,
    it is listed after the decks that play, marked invalid with its problems, and cannot be ticked."""
    from cardbase.sim.table_setup import DeckChoice, deck_problems

    deck_id = import_rush(client)
    playable = import_rush(client, "Rush again")
    small = new_deck(client, "Three cards")
    first = client.get("/cards", params={"q": "game:mea t:monster", "view": "table"}).text
    card = unescape(re.findall(r'data-card-id="([^"]+)"', first)[0])
    client.post(f"/decks/{small}/cards", data={"card": card, "op": "add", "section": ""})
    problems = deck_problems(client.app.state.settings.database, DeckChoice(deck_id=small))  # type: ignore[attr-defined]
    assert problems  # the table would refuse it
    page = client.get(f"/decks/{deck_id}/lab").text
    boxes = re.findall(
        r'<label class="check"[^>]*>(<input type="checkbox" name="against" value="([^"]+)"[^>]*>)(.*?)</label>',
        page,
        re.S,
    )
    by_key = {key: (tag, unescape(re.sub(r"<[^>]+>", "", words))) for tag, key, words in boxes}
    assert "disabled" not in by_key[f"deck:{playable}"][0] and "invalid" not in by_key[f"deck:{playable}"][1]
    tag, words = by_key[f"deck:{small}"]
    assert "disabled" in tag, tag
    assert f"invalid: {len(problems)} problem" in words, words
    keys = list(by_key)
    assert keys.index(f"deck:{small}") == len(keys) - 1  # after every deck that plays
    option = re.search(rf'<option value="deck:{small}"[^>]*>([^<]*)</option>', page)
    assert option and "disabled" in option.group(0) and "invalid" in option.group(1), option
