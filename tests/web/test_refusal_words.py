"""Every refusal a page shows reads in players' words: a game by its display name (Méa, not mea), a
form's field by its label (not the command line's ``--flag``), no ``cardbase`` command. The command
line's text and the API's ``message`` stay the command line's; the API's error adds the players'
``text`` beside them where it differs."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardbase.db.engine import Database
from cardbase.web.app import create_app
from cardbase.web.settings import ServerSettings

GAME_IDS = re.compile(r"(?<![\w'\"/:.-])(mea|meio|meikyu)(?![\w'\"/-])")
FLAG = re.compile(r"(?<![\w-])--[a-z]")


@pytest.fixture
def web(database: Database) -> Iterator[TestClient]:
    settings = ServerSettings(database=database)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as client:
        yield client


def words(fragment: str) -> str:
    """The text a reader sees of an HTML fragment (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def refusal_of(page: str) -> str:
    """The words of the refusal a page shows: its error line (``class="error"``) and any list of
    problems beside it."""
    found = re.findall(r'<(p|div|span|li)\b[^>]*class="[^"]*\b(?:query-)?error\b[^"]*"[^>]*>(.*?)</\1>', page, re.S)
    return " | ".join(" ".join(words(inner).split()) for _, inner in found)


def card_id(web: TestClient, game: str) -> str:
    found = web.get("/api/cards", params={"q": "", "game": game, "limit": 1}).json()
    items = found["cards"] if isinstance(found, dict) else found
    cid: str = items[0]["id"]
    return cid


def deck(web: TestClient, game: str, name: str) -> int:
    made = web.post("/api/decks", json={"game": game, "name": name})
    assert made.status_code == 201, made.text
    deck_id: int = made.json()["id"]
    return deck_id


Refusal = Callable[[TestClient], Any]


def _section(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    return web.post(f"/decks/{d}/cards", data={"card": card_id(web, "mea"), "op": "add", "section": "bogus"})


def _other_game_card(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    return web.post(f"/decks/{d}/cards", data={"card": card_id(web, "meikyu"), "op": "add"})


def _format(web: TestClient) -> Any:
    d = deck(web, "meio", "Tricks")
    return web.post(f"/decks/{d}/format", data={"format": "bogus"})


def _new_deck_game(web: TestClient) -> Any:
    return web.post("/decks", data={"game": "chess", "name": "Tricks"})


def _taken_name(web: TestClient) -> Any:
    deck(web, "mea", "Rush")
    return web.post("/decks", data={"game": "meio", "name": "Rush"})


def _collection_no_game(web: TestClient) -> Any:
    return web.post("/collection/import", data={"mode": "add", "text": "3 Crumb Goblin\n", "action": "preview"})


def _play_rule(web: TestClient) -> Any:
    return web.post("/play", data={"game": "meio", "players": "4", "rule_second_half_leader": "bogus"})


def _play_deck(web: TestClient) -> Any:
    return web.post("/play", data={"game": "mea", "players": "2", "deck0_text": "game: meio\n1 Crumb Goblin\n"})


def _play_players(web: TestClient) -> Any:
    return web.post("/play", data={"game": "mea", "players": "3"})


def _collection_other_game_row(web: TestClient) -> Any:
    csv = b"name,count,game\nCrumb Goblin,2,meio\n"
    form = {"game": "mea", "mode": "add", "action": "preview"}
    return web.post("/collection/import", data=form, files={"file": ("list.csv", csv, "text/csv")})


def _import_taken_name(web: TestClient) -> Any:
    deck(web, "mea", "Rush")
    return web.post("/decks/import", data={"text": "game: mea\n3 Crumb Goblin\n", "name": "Rush"})


def _odds_query(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    web.post(f"/decks/{d}/cards", data={"card": card_id(web, "mea"), "op": "add"})
    return web.get(f"/decks/{d}", params={"needs": "2 game:chess"})


def _play_game(web: TestClient) -> Any:
    return web.get("/play", params={"game": "chess"})


def _print_dpi(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    return web.get(f"/decks/{d}/print.pdf", params={"paper": "tabloid-ish"})


def _share_code(web: TestClient) -> Any:
    return web.get("/decks/new", params={"code": "AAAA*AAAA"})


def _export_sections(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    web.post(f"/decks/{d}/cards", data={"card": card_id(web, "mea"), "op": "add", "section": "maybe"})
    return web.get(f"/decks/{d}/export.ydk")


def _compare_no_deck(web: TestClient) -> Any:
    return web.get("/decks/compare", params={"a": "998", "b": "999"})


def _play_no_deck(web: TestClient) -> Any:
    return web.post("/play", data={"game": "mea", "players": "2", "deck0": "db:998"})


def _new_card_game(web: TestClient) -> Any:
    return web.post("/cards/new", data={"game": "chess", "name": "X"})


def _undo_not_kept(web: TestClient) -> Any:
    d = deck(web, "mea", "Rush")
    return web.post(f"/decks/{d}/undo", data={"to": "999", "version": "1", "fragment": "1"})


def _new_card_taken(web: TestClient) -> Any:
    form = {"game": "mea", "set": "demo", "name": "Crumb Goblin", "type": "monster", "cost": "1"}
    return web.post("/cards/new", data=form)


def _revert_no_edit(web: TestClient) -> Any:
    return web.post(f"/cards/{card_id(web, 'mea')}/history/999/revert", data={})


REFUSALS: dict[str, Refusal] = {
    "an undo to a version not kept": _undo_not_kept,
    "a new card another card is": _new_card_taken,
    "a revert of an edit not made": _revert_no_edit,
    "a deck compared that is not there": _compare_no_deck,
    "a play deck that is not there": _play_no_deck,
    "a new card of no game": _new_card_game,
    "a share code that is none": _share_code,
    "an export of a section the form has not": _export_sections,
    "a section the game has not": _section,
    "another game's card": _other_game_card,
    "an unknown format": _format,
    "a new deck of no game": _new_deck_game,
    "a name another deck has": _taken_name,
    "a collection list of no game": _collection_no_game,
    "a play option refused": _play_rule,
    "a play deck of another game": _play_deck,
    "a play of too many players": _play_players,
    "a collection row of another game": _collection_other_game_row,
    "an import under a name taken": _import_taken_name,
    "an odds need refused": _odds_query,
    "a game the tables do not know": _play_game,
    "a print option refused": _print_dpi,
}
# a print option refused is a download's: its page is the error page, as every refusal the handler words


@pytest.mark.parametrize("refuse", REFUSALS.values(), ids=REFUSALS.keys())
def test_every_page_refusal_reads_for_players(web: TestClient, refuse: Refusal) -> None:
    """The class: each page's refusal, walked, names no game by its id, no ``--flag`` and no command."""
    answer = refuse(web)
    assert 200 <= answer.status_code < 500, answer.text  # a panel of a page shown says why it has nothing
    said = refusal_of(answer.text)
    assert said, answer.text
    assert not GAME_IDS.search(said), said
    assert not FLAG.search(said), said
    assert "cardbase " not in said and "`" not in said, said


def test_unknown_format_names_the_game_by_its_display_name(web: TestClient) -> None:
    said = refusal_of(_format(web).text)
    assert "Meio has no format 'bogus'" in said, said


def test_another_games_card_names_both_games_for_players(web: TestClient) -> None:
    said = refusal_of(_other_game_card(web).text)
    assert "is a Meikyu card, not Méa, the game of deck " in said, said


def test_a_flag_is_said_as_the_forms_field(web: TestClient) -> None:
    said = refusal_of(_section(web).text)
    assert "Méa decks have the sections" in said and "--section" not in said, said


def test_a_refused_rename_names_the_box_by_its_labels_words(web: TestClient) -> None:
    """The rename box's label is a screen reader's span ("New name for <the deck>"): the refusal said
    "Invalid value for 'name'" (the label's words were not found behind the span); it says the label's."""
    renamed = deck(web, "mea", "Alpha")
    deck(web, "mea", "Beta")
    form = rf'action="/decks/{renamed}/rename"><input type="hidden" name="version" value="(\d+)"'
    found = re.search(form, web.get("/decks").text)
    assert found, "the decks page has no rename form for the deck"
    answer = web.post(f"/decks/{renamed}/rename", data={"name": "Beta", "version": found.group(1)})
    assert answer.status_code == 409, answer.status_code
    assert refusal_of(answer.text) == "Invalid value for 'New name': a deck named 'Beta' already exists"


@pytest.mark.parametrize(
    ("label", "words"),
    [
        ("Name ", "Name"),
        ('<span class="visually-hidden">New name for {{ d.name }}</span>', "New name"),
        ('<span class="visually-hidden">Tags for {{ e.name }} in this deck</span>', "Tags"),
        ("Needs <code>2 t:monster</code>", "Needs"),  # up to the markup, as before
        ("{{ {'mea': 'Opening hand'}[game] }} ", ""),  # all filled in: no words to name it by
    ],
)
def test_a_labels_words_are_read_behind_a_span_and_before_what_is_filled_in(label: str, words: str) -> None:
    from cardbase.web.errors import label_words

    assert label_words(label) == words


def test_the_api_keeps_the_command_lines_message_and_adds_the_players_text(web: TestClient) -> None:
    d = deck(web, "meio", "Tricks")
    error = web.patch(f"/api/decks/{d}", json={"format": "bogus"}).json()["error"]
    assert "meio has no format 'bogus'" in error["message"] and "--formats file" in error["message"], error
    assert "Meio has no format 'bogus'" in error["text"] and "--" not in error["text"], error


def test_the_wording_step_leaves_a_users_text_and_a_line_to_write() -> None:
    from cardbase.web.errors import players_words

    said = players_words("unknown card 'mea' in mea; write a 'game: mea' line, or game: meio; see /cards/mea/x")
    assert said == "unknown card 'mea' in Méa; write a 'game: mea' line, or game: meio; see /cards/mea/x"
    assert players_words("bad --card-size 'x': give --paper") == "bad card size 'x': give paper"
    assert players_words("bad --paper 'x'", "/decks/7/print.pdf") == "bad Paper 'x'"  # the form's label
    assert players_words("--no-such-option") == "no such option"
    assert players_words("meio.txt: line 2: a meio deck.") == "meio.txt: line 2: a Meio deck."  # a file's name
    assert players_words("P1's deck: a mea deck, not 'meio'") == "P1's deck: a Méa deck, not 'meio'"  # an apostrophe


def test_a_command_is_said_as_the_page_that_does_it() -> None:
    """Each command a refusal names (with its arguments) is the page that does it; a command in a user's
    quoted text, and one no page does, are left as they are."""
    from cardbase.web.errors import players_words

    assert (
        players_words("versions 1 to 2 are kept (`cardbase deck history`)")
        == "versions 1 to 2 are kept (the deck's History)"
    )
    assert players_words("or `cardbase deck delete 'Rush'` first") == "or the deck's Delete first"
    assert players_words("no deck named '`cardbase deck list`'") == "no deck named '`cardbase deck list`'"
    assert players_words("the link `cardbase serve` printed") == "the link `cardbase serve` printed"


def test_the_command_lines_words_are_unchanged(web: TestClient) -> None:
    """The refusal's message is the command line's: the game by its id, the option, the command."""
    from cardbase.decks.formats import require_format
    from cardbase.errors import UnknownCard, UsageError

    with pytest.raises(UsageError) as refused:
        require_format("meio", "bogus")
    assert str(refused.value).startswith("meio has no format 'bogus'") and "--formats" in str(refused.value)
    assert refused.value.said is not None and refused.value.said.startswith("Meio has no format 'bogus'")
    missing = UnknownCard("Nobody", "mea", ["Noble"])
    assert str(missing) == "unknown card 'Nobody' in mea; did you mean 'Noble'?"
    assert missing.said == "unknown card 'Nobody' in Méa; did you mean 'Noble'?"


def test_players_words_survive_a_copy_and_a_pickle() -> None:
    """A refusal made in a worker process reaches the page with its players' words."""
    import copy
    import pickle

    from cardbase.errors import Said, UsageError, said_of

    line = Said("give --format text", "download it as text")
    for kept in (pickle.loads(pickle.dumps(line)), copy.deepcopy(line)):
        assert kept == "give --format text" and said_of(kept) == "download it as text"
    error = pickle.loads(pickle.dumps(UsageError(line)))
    assert str(error) == "give --format text" and error.said == "download it as text"


def test_a_page_asked_without_the_token_says_where_the_link_is(database: Database) -> None:
    """The server's token refusal: the command line's words name ``cardbase serve``; a page names the
    server, whose link holds the token (the API's message stays the command line's)."""
    settings = ServerSettings(database=database, token="t" * 32)
    with TestClient(create_app(settings), base_url=settings.base_url, raise_server_exceptions=False) as web:
        for page in (web.get("/decks"), web.get("/decks", params={"token": "wrong" * 8})):
            assert page.status_code == 401
            said = refusal_of(page.text)
            assert "the server printed when it was started" in said and "cardbase " not in said, said
        error = web.get("/api/decks").json()["error"]
        assert "`cardbase serve` printed" in error["message"] and "cardbase " not in error["text"], error


def test_the_meikyu_refusal_of_missing_values_says_its_hint_in_the_pages_words(web: TestClient) -> None:
    """The refusal lists the missing values and then the hint, whose players' words are its own (the
    catalog page, the profile 'default'): the API's ``text`` says them as the page does, not the
    command line's words put through the wording step (``import FILE game Meikyu``)."""
    from cardbase.sim.meikyu import IMPORT_HINT

    error = web.post("/api/games", json={"game": "meikyu", "players": 2}).json()["error"]
    assert "--game meikyu" in error["message"], error["message"][-400:]
    text = error["text"]
    assert text.splitlines()[-1].strip() == IMPORT_HINT.said, text[-400:]
    assert "game Meikyu" not in text and "cardbase " not in text and "--" not in text, text[-400:]
    assert text.splitlines()[0] == error["message"].splitlines()[0]  # the head, the same in both
    page = web.post("/play", data={"game": "meikyu", "players": "2", "seat0": "human", "seat1": "heuristic"})
    assert IMPORT_HINT.said in words(page.text) and "game Meikyu" not in words(page.text)
    head = re.search(r'<div id="error"[^>]*><p>(.*?)</p>', page.text, re.S)
    assert head is not None and "Cook (character)" not in head.group(1), head  # the page's head alone


def test_a_listing_with_a_line_in_players_words_carries_them_whole() -> None:
    """The class of it: every message made of a head and lines (``CardbaseError._listing``: a file's
    problems, a profile's, the values a catalog lacks) keeps each line's players' words (``Said``), and a
    page that shows the head alone (the lines below it) takes the players' head alone."""
    from cardbase.catalog.meikyu_profiles import InvalidProfile
    from cardbase.errors import InvalidData, Said
    from cardbase.web.errors import page_text

    hint = Said("run `cardbase catalog import FILE --game meio`", "import them on the catalog page")
    listed = InvalidData("deck.txt", ["line 2: no such card", hint])
    assert listed.said == "deck.txt: 2 problems, nothing was written:\n  line 2: no such card\n  " + hint.said
    assert "--game meio" in str(listed)  # the command line's words unchanged
    head = str(listed).splitlines()[0]
    assert page_text(listed, head) == head and page_text(listed, head.rstrip(":")) == head.rstrip(":")
    assert page_text(listed) == listed.said
    assert InvalidProfile("p.json", ["x: not a number", hint]).said is not None
    assert InvalidData("deck.txt", ["line 2: no such card"]).said is None  # no players' words: none made
