"""Honest data on every surface that shows a deck's numbers (the owners' standard): a NULL value is
counted as unknown — never as 0, never named ``None``, never left out of a count — and content this
project made (the Méa demo set) is labelled wherever it shows. tests/test_not_applicable.py holds the
per-card checks (``?`` and ``—``); these walk the deck surfaces over a catalog where cards of every
game have NULL values: the CLI's text and --json, the web API and the deck page."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings
from tests.hostile.conftest import run_cli

# Cards with NULL values in each nullable field a deck's numbers read (and a card with all of them).
CARDS = {
    "mea": [
        "name=Nocost Imp type=monster atk=2 def=2",
        "name=Noatk Imp type=monster cost=2 def=2",
        "name=Nodef Imp type=monster cost=3 atk=1",
        "name=Blank Imp type=monster",
        "name=Nocost Aid type=assist",
    ],
    "meio": [
        "name=Joker X type=playing card",
        "name=Half Card type=playing card rank=5",
        "name=Suited X type=playing card suit=H",
    ],
    "meikyu": ["name=Unlevelled Room type=land"],
}
DECKS = {
    "mea": "game: mea\nname: Honest Mea\n3 Nocost Imp\n3 Noatk Imp\n3 Nodef Imp\n2 Blank Imp\n3 Nocost Aid\n"
    "3 Crumb Goblin\n3 Pep Talk\n",
    "meio": "game: meio\nname: Honest Meio\n1 Joker X\n1 Half Card\n1 Suited X\n1 AS\n1 KH\n1 QH\n"
    + "".join(f"1 {rank}S\n" for rank in range(2, 9)),  # 13 cards: one hand
    "meikyu": "game: meikyu\nname: Honest Meikyu\n1 Den of the Geister\n2 Unlevelled Room\n1 Cook\n1 Doctor\n1 Sword\n"
    "4 Gotcha!\n1 Bee\n1 Drone\n1 Master\n1 Grimoire\n1 Amulet\n1 Map\n",
}
UNKNOWN = {  # per game: the count tables of deck_stats, each with the copies whose value is unknown
    "mea": {"mana_curve": 3 + 2 + 3},  # Nocost Imp, Blank Imp, Nocost Aid
    "meio": {"suits": 2, "ranks": 2},  # Joker X and Half Card; Joker X and Suited X
    "meikyu": {"land_levels": 2},
}


@pytest.fixture
def honest(db_url: str, tmp_path: Path) -> dict[str, Path]:
    """The decks of DECKS as files, over a catalog holding the cards of CARDS (set ``hon``)."""
    for game, cards in CARDS.items():
        for card in cards:
            fields = re.findall(r"(\w+)=(.+?)(?= \w+=|$)", card)
            result = run_cli(["catalog", "add", "--game", game, *(f"{k}={v}" for k, v in fields), "set=hon"], db_url)
            assert result.exit_code == 0, result.output
    files = {}
    for game, text in DECKS.items():
        files[game] = tmp_path / f"{game}.txt"
        files[game].write_text(text, encoding="utf-8")
    return files


@pytest.fixture
def web(database: Database) -> Iterator[TestClient]:
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url) as client:
        yield client


def stored(web: TestClient, path: Path) -> int:
    """The deck of ``path`` imported through the web API: its id."""
    response = web.post("/api/decks/import", json={"text": path.read_text(encoding="utf-8")})
    assert response.status_code in (200, 201), response.text
    deck_id: int = response.json()["id"]
    return deck_id


def page_text(page: str, panel: str) -> str:
    """The words of the deck page's ``panel`` section."""
    part = page.split(f'id="{panel}"', 1)[1].split("</section>", 1)[0]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", part)))


StatsSurface = Callable[[Path, TestClient, str], dict[str, str]]


def _cli_text(path: Path, web: TestClient, db: str) -> dict[str, str]:
    result = run_cli(["deck", "stats", str(path)], db)
    assert result.exit_code == 0, result.output
    return dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)


def _as_text(data: dict[str, Any]) -> dict[str, str]:
    """JSON's statistics by the labels the text surfaces show them by (``stat_label``)."""
    from cardbase.decks.stats import stat_label

    return {stat_label(k): json.dumps(v) for k, v in data.items()}


def _cli_json(path: Path, web: TestClient, db: str) -> dict[str, str]:
    result = run_cli(["deck", "stats", str(path), "--json"], db)
    assert result.exit_code == 0, result.output
    return _as_text(json.loads(result.stdout))


def _api(path: Path, web: TestClient, db: str) -> dict[str, str]:
    return _as_text(web.get(f"/api/decks/{stored(web, path)}/stats").json())


def _page(path: Path, web: TestClient, db: str) -> dict[str, str]:
    page = web.get(f"/decks/{stored(web, path)}").text
    rows = re.findall(r'<th scope="row">(.*?)</th>\s*<td[^>]*>(.*?)</td>', page.split('id="stats"', 1)[1], re.S)
    return {html.unescape(k): re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", v))) for k, v in rows}


STATS_SURFACES = {"cli": _cli_text, "cli --json": _cli_json, "api": _api, "page": _page}


def _count_of_unknown(shown: str) -> int:
    """The count a shown table gives the unknown value ``?`` (0 when it has none)."""
    found = re.search(r'"\?": (\d+)|\?:\s*(\d+)', shown)
    return int(next(g for g in found.groups() if g)) if found else 0


@pytest.mark.parametrize("surface", STATS_SURFACES)
@pytest.mark.parametrize("game", DECKS)
def test_a_count_by_value_counts_the_unknown_ones_as_unknown(
    game: str, surface: str, honest: dict[str, Path], web: TestClient, db_url: str
) -> None:
    """Every count table of a deck's numbers (Méa's mana curve, Meikyu's land levels, Meio's suits and
    ranks) counts a card of unknown value under ``?``: not under ``None``, and not left out (Meio's
    suits counted only S, H, D and C, so two cards of unknown suit were in no count)."""
    from cardbase.decks.stats import stat_label

    shown = STATS_SURFACES[surface](honest[game], web, db_url)
    for key, unknown in UNKNOWN[game].items():
        line = shown[stat_label(key)]
        assert "None" not in line and "null" not in line, (key, line)
        assert _count_of_unknown(line) == unknown, (key, line)
    if game == "meio":  # three known hearts, and Joker X's and Half Card's suits unknown: not exactly 3
        hearts = shown[stat_label("hearts")]  # 'heart cards'
        assert hearts != "3" and ("unknown" in hearts or '"total": null' in hearts), hearts


DrawsSurface = Callable[[Path, TestClient, str, dict[str, str]], tuple[bool, str]]


def _draws_cli(json_out: bool) -> DrawsSurface:
    def run(path: Path, web: TestClient, db: str, options: dict[str, str]) -> tuple[bool, str]:
        args = [a for k, v in options.items() for a in (f"--{k}", v)]
        result = run_cli(["draws", str(path), *args, *(["--json"] if json_out else [])], db)
        assert "Traceback" not in result.output and "internal error" not in result.output, result.output
        assert result.exit_code in (0, 1), result.output
        return result.exit_code == 0, result.stdout + result.stderr

    return run


def _draws_api(path: Path, web: TestClient, db: str, options: dict[str, str]) -> tuple[bool, str]:
    response = web.get(f"/api/decks/{stored(web, path)}/draws", params=options)
    assert "internal error" not in response.text and response.status_code < 500, response.text
    return response.status_code == 200, response.text + "\n" + "\n".join(api_notes(response))


def api_notes(response: Any) -> list[str]:
    """The notes an API answer carries beside its JSON (``draws --json`` writes them on stderr)."""
    notes = json.loads(response.headers.get("Cardbase-Notes", "[]"))
    assert isinstance(notes, list) and all(isinstance(note, str) for note in notes), notes
    return notes


def _draws_page(path: Path, web: TestClient, db: str, options: dict[str, str]) -> tuple[bool, str]:
    if "sample" not in options:
        pytest.skip("the deck page shows a sample hand and the odds of needs, not the game's report")
    page = web.get(f"/decks/{stored(web, path)}", params={"seed": options["seed"], "hand": options["cards"]})
    assert page.status_code == 200 and "internal error" not in page.text
    text = page_text(page.text, "sample-hand")
    return 'role="alert"' not in page.text.split('id="sample-hand"', 1)[1].split("</section>", 1)[0], text


DRAWS_SURFACES = {"cli": _draws_cli(False), "cli --json": _draws_cli(True), "api": _draws_api, "page": _draws_page}


@pytest.mark.parametrize("surface", DRAWS_SURFACES)
def test_meio_draws_of_a_deck_with_unknown_suits_and_ranks(
    surface: str, honest: dict[str, Path], web: TestClient, db_url: str
) -> None:
    """A Meio hand holding cards of unknown suit or rank (Joker X knows neither): its sample hands show
    them by name, and its report (hearts, high cards, void suits), which needs every card's suit and
    rank, is refused naming the cards — both crashed (None compared with a rank, sorted with a suit)."""
    draws = DRAWS_SURFACES[surface]
    shown, text = draws(honest["meio"], web, db_url, {"sample": "1", "seed": "4", "cards": "13"})
    assert shown and "Joker X" in text and "Half Card" in text, text
    if surface == "page":
        return
    shown, text = draws(honest["meio"], web, db_url, {})
    assert not shown and "Joker X" in text and "unknown suit" in text, text


def _odds_cli(json_out: bool) -> Callable[[Path, str, str, TestClient], str]:
    def run(path: Path, need: str, db: str, web: TestClient) -> str:
        result = run_cli(["draws", str(path), "--need", need, "-c", "5", *(["--json"] if json_out else [])], db)
        assert result.exit_code == 0, result.output
        return result.stdout + result.stderr

    return run


def _odds_page(path: Path, need: str, db: str, web: TestClient) -> str:
    page = web.get(f"/decks/{stored(web, path)}", params={"needs": need, "open": "odds"}).text
    return page_text(page, "odds")


def _odds_api(path: Path, need: str, db: str, web: TestClient) -> str:
    shown, text = _draws_api(path, web, db, {"need": need, "cards": "5"})
    assert shown, text
    return text


ODDS_SURFACES = {"cli": _odds_cli(False), "cli --json": _odds_cli(True), "page": _odds_page, "api": _odds_api}
NEEDS = {  # a need reading a field some of the deck's cards do not know, of each kind of field
    "mea": ("1 cost<=2", "cost"),
    "meio": ("2 suit:h", "suit"),
    "meikyu": ("1 t:item or wits>=1", "wits"),
}


@pytest.mark.parametrize("surface", ODDS_SURFACES)
@pytest.mark.parametrize("game", NEEDS)
def test_the_odds_of_a_need_on_an_unknown_value_say_it_is_not_counted(
    game: str, surface: str, honest: dict[str, Path], web: TestClient, db_url: str
) -> None:
    """The chance that a hand holds ``2 suit:h`` counts only the cards known to be hearts: the odds say
    so (as they did for ``cost<=2``), not as if every card's suit were known — ``suit:h`` was not
    taken for a need that reads a value, as only numbers compared were."""
    need, field = NEEDS[game]
    shown = ODDS_SURFACES[surface](honest[game], need, db_url, web)
    assert f"unknown {field}" in shown or re.search(rf"unknown [a-z_ ,()0-9]*\b{field} \(", shown), shown


DEMO_DRAWS = {  # every kind of draws output of a deck: the opening report, a need's odds, sample hands
    "report": [],
    "needs": ["--need", "1 t:assist", "-c", "5"],
    "sample": ["--sample", "2", "--seed", "1"],
}


@pytest.mark.parametrize("json_out", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("kind", DEMO_DRAWS)
def test_draws_of_demo_cards_say_they_are_demo_cards(
    kind: str, json_out: bool, honest: dict[str, Path], db_url: str
) -> None:
    """``draws`` of a deck of demo cards (Crumb Goblin, Pep Talk: cardbase's own, not published Méa cards)
    said so nowhere — its chances are of values this project made, and its sample hands list demo cards
    by name alone — while ``sim``, ``lab`` and the deck page label them. A deck without one says nothing."""
    args = ["draws", str(honest["mea"]), *DEMO_DRAWS[kind], *(["--json"] if json_out else [])]
    result = run_cli(args, db_url)
    assert result.exit_code == 0, result.output
    assert "6 of the 20 cards drawn are demo cards" in result.stdout + result.stderr, result.output
    plain = honest["mea"].with_name("plain.txt")
    plain.write_text(re.sub(r"3 (Crumb Goblin|Pep Talk)\n", "", DECKS["mea"]), encoding="utf-8")
    result = run_cli(["draws", str(plain), *args[2:]], db_url)
    assert result.exit_code == 0 and "demo" not in result.stdout + result.stderr, result.output


API_DRAWS = {"report": {}, "needs": {"need": "1 t:assist", "cards": "5"}, "sample": {"sample": "2", "seed": "1"}}


@pytest.mark.parametrize("kind", API_DRAWS)
def test_the_apis_draws_of_demo_cards_say_they_are_demo_cards(
    kind: str, honest: dict[str, Path], web: TestClient, db_url: str
) -> None:
    """``GET /api/decks/ID/draws`` answers what ``draws --json`` prints, and the notes that command writes
    beside it on stderr (demo cards here) in its ``Cardbase-Notes`` header: the API dropped them."""
    response = web.get(f"/api/decks/{stored(web, honest['mea'])}/draws", params=API_DRAWS[kind])
    assert response.status_code == 200, response.text
    assert any("6 of the 20 cards drawn are demo cards" in note for note in api_notes(response)), response.headers
    plain = honest["mea"].with_name("plain.txt")
    plain.write_text(re.sub(r"3 (Crumb Goblin|Pep Talk)\n", "", DECKS["mea"]), encoding="utf-8")
    response = web.get(f"/api/decks/{stored(web, plain)}/draws", params=API_DRAWS[kind])
    assert response.status_code == 200 and "demo" not in "".join(api_notes(response)), response.headers


@pytest.mark.parametrize("group", ["type", "cost", "tag"])
def test_a_grouped_deck_list_labels_its_demo_cards(group: str, honest: dict[str, Path], db_url: str) -> None:
    """``deck show --group`` listed Crumb Goblin and Pep Talk (demo cards) as it lists published ones: the
    plain list names their set (``(demo)``) and the deck page badges them, the grouped list said nothing."""
    result = run_cli(["deck", "show", str(honest["mea"]), "--group", group], db_url)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if re.match(r"  \d+ ", line)]
    assert len(lines) == 7, result.stdout
    for line in lines:
        assert ("demo" in line) == any(name in line for name in ("Crumb Goblin", "Pep Talk")), line
    assert "demo: demo card made for cardbase, not a published card" in result.stdout


def test_a_playing_cards_players_not_given_is_unknown_not_absent(
    honest: dict[str, Path], web: TestClient, db_url: str
) -> None:
    """Every Meio playing card is in the deck of some number of players (min_players: A–7 from 2, 8–10
    from 3, J–K at 4): it follows the card's rank, so a card entered without its rank does not know it:
    unknown (``?``, listed in ``unknown``), not "does not apply" (``—``), on the card's surfaces."""
    shown = run_cli(["cards", "show", "Suited X", "--json"], db_url)
    assert "min_players" in json.loads(shown.stdout)["unknown"], shown.stdout
    text = run_cli(["cards", "show", "Suited X"], db_url).stdout
    assert re.search(r"min_players\s*│ \? \(unknown\)", text), text
    page = web.get("/cards/meio/hon/suited-x").text
    fields = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.split("Fields of", 1)[1][:3000])))
    assert "min players ? (unknown)" in fields, fields
    half = run_cli(["cards", "show", "Half Card", "--json"], db_url)  # rank 5: in the 2-player deck
    assert json.loads(half.stdout)["min_players"] == 2 and "min_players" not in json.loads(half.stdout)["unknown"]
    ace = run_cli(["cards", "show", "Ace of Spades", "--json"], db_url)
    assert json.loads(ace.stdout)["unknown"] == []


@pytest.mark.parametrize("game", ["mea", "meikyu", "meio"])
def test_a_catalog_exported_as_json_leaves_out_what_does_not_apply(
    game: str, honest: dict[str, Path], db_url: str, tmp_path: Path
) -> None:
    """In ``catalog export --format json`` null is an unknown value (the export says "unknown stays visible
    as null"); an assist's attack, a character's level or a land's bravery do not apply, so they are left
    out, not written as null (an assist read 'attack: null': unknown, as if it had one)."""
    from cardbase.catalog.fields import APPLICABLE, typed_fields

    out = tmp_path / f"{game}.json"
    result = run_cli(["catalog", "export", "--game", game, "--format", "json", "-o", str(out)], db_url)
    assert result.exit_code == 0, result.output
    cards = json.loads(out.read_text(encoding="utf-8"))["cards"]
    typed = typed_fields(game)
    for card in cards:
        applies = APPLICABLE.get((game, card["type"]), ())
        for field in typed:
            if field in applies:
                assert field in card, (card["name"], field)  # its value, or null: unknown
            else:
                assert field not in card, (card["name"], field, card.get(field))
