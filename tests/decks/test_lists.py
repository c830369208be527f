"""Other tools' deck lists: every line form read, each export form read back to the same deck,
Cockatrice XML read hardened, and share links decoded as codes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.decks.files import EXPORT_FORMATS, code_of, parse_deck_text, write_deck
from cardbase.decks.lists import MAX_XML_DEPTH, parse_cod
from cardbase.decks.model import Deck, DeckCard
from cardbase.decks.service import resolve_file, resolve_text
from cardbase.decks.text import parse_text
from cardbase.errors import UnreadableInput, UsageError
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "decks"
OTHER_FORMS = ("arena", "plain", "mtgo", "cod", "ydk")


def entries(text: str) -> list[tuple[int, str, str | None, str | None, int | None]]:
    deck = parse_text(text)
    assert deck.problems == []
    return [(e.count, e.name, e.section, e.set, e.line) for e in deck.lines]


def test_every_line_form_players_paste_is_read() -> None:
    pasted = "\n".join(
        [
            "Deck",  # 1: Arena's main block
            "3x Crumb Goblin",
            "Puddle Knight x3",
            "2 Naïve Squire (demo) 12",
            "SB: 2 Pep Talk",
            "",
            "// Sideboard",  # 7
            "1 Tripwire",
            "Maybeboard",
            "1 Strong Coffee",
            "Sideboard",
            "Barrel Bandit X 2",
        ]
    )
    assert entries(pasted) == [
        (3, "Crumb Goblin", None, None, 2),
        (3, "Puddle Knight", None, None, 3),
        (2, "Naïve Squire", None, "demo", 4),
        (2, "Pep Talk", "sideboard", None, 5),
        (1, "Tripwire", "sideboard", None, 8),
        (1, "Strong Coffee", "maybe", None, 10),
        (2, "Barrel Bandit", "sideboard", None, 12),
    ]


def test_ydk_blocks_are_sections_and_each_line_is_one_copy() -> None:
    text = "#created by someone\n#main\nCrumb Goblin\nCrumb Goblin\n#extra\n!side\nPep Talk (demo)\n"
    assert entries(text) == [
        (1, "Crumb Goblin", None, None, 3),
        (1, "Crumb Goblin", None, None, 4),
        (1, "Pep Talk", "sideboard", "demo", 7),
    ]


def test_a_ydk_passcode_or_a_bad_count_is_a_problem_on_its_line() -> None:
    deck = parse_text("#main\n89631139\nCrumb Goblin x0\nSB: \n")
    assert [(p.code, p.line) for p in deck.problems] == [("bad-line", 2), ("bad-count", 3), ("bad-line", 4)]
    assert deck.lines == []


def test_cards_the_catalog_lacks_are_named_with_their_line_and_closest_names(database) -> None:
    pasted = "Deck\n3 Crumb Goblin\n2 Crum Goblin\n\nSideboard\n1 Tripwyre\n"
    resolved = resolve_text(database, parse_deck_text(pasted, "pasted"))
    unknown = [p for p in resolved.problems if p.code == "unknown-card"]
    assert [p.line for p in unknown] == [3, 6]
    assert "Crumb Goblin" in str(unknown[0]) and "Tripwire" in str(unknown[1])


def test_a_side_block_in_a_game_without_sections_is_refused_on_its_line(database) -> None:
    resolved = resolve_text(database, parse_deck_text("game: meikyu\n2 Grimoire\nSB: 1 Cook\n", "t"))
    assert [(p.code, p.line) for p in resolved.problems if p.severity == "error"] == [("section", 3)]


def key(deck: Deck) -> list[tuple[str, int, str | None]]:
    return sorted((c.card_id, c.count, c.section or "") for c in deck.canonical().cards)


def round_trip(database, deck: Deck, form: str) -> Deck:
    written = write_deck(deck, form)
    resolved = resolve_text(database, parse_deck_text(written, f"exported.{form}"), deck.game)
    assert [p for p in resolved.problems if p.severity == "error"] == [], written
    return resolved.deck


@pytest.mark.parametrize("form", EXPORT_FORMATS[:2] + OTHER_FORMS)
@pytest.mark.parametrize("name", ["mea-goblin-rush.txt", "mea-tile-control.txt", "meikyu-rulebook-cards.txt"])
def test_each_form_reads_back_to_the_same_deck(database, name: str, form: str) -> None:
    deck = resolve_file(database, EXAMPLES / name).deck
    assert key(round_trip(database, deck, form)) == key(deck)


def test_the_cod_form_keeps_each_cards_set(database) -> None:
    deck = Deck("mea", (DeckCard("mea/demo/crumb-goblin", "Crumb Goblin", 3),), "Goblin Rush")
    assert 'name="Crumb Goblin" setShortName="demo"/>' in write_deck(deck, "cod")
    assert parse_cod(write_deck(deck, "cod")).lines[0].set == "demo"


def test_the_cod_form_keeps_the_deck_name(database) -> None:
    deck = resolve_file(database, EXAMPLES / "mea-goblin-rush.txt").deck
    assert round_trip(database, deck, "cod").name == "Goblin Rush"


_POOLS: dict[int, list] = {}


def mea_cards(database) -> list:
    """The Méa catalog's cards, loaded once per test database."""
    if id(database) not in _POOLS:
        from cardbase.decks.service import catalog_index

        cards = catalog_index(database).by_id.values()
        _POOLS[id(database)] = sorted((c for c in cards if c.game == "mea"), key=lambda c: c.id)
    return _POOLS[id(database)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), form=st.sampled_from(("text", "json", "arena", "plain", "ydk", "cod")))
def test_any_mea_deck_with_side_sections_round_trips(database, data, form: str) -> None:
    pool = mea_cards(database)
    sections = (None, "sideboard") if form in ("cod", "ydk") else (None, "sideboard", "maybe")
    chosen = data.draw(
        st.lists(
            st.tuples(st.sampled_from(pool), st.integers(1, 4), st.sampled_from(sections)),
            min_size=1,
            max_size=12,
            unique_by=lambda t: (t[0].id, t[2]),
        )
    )
    deck = Deck("mea", tuple(DeckCard(card.id, card.name, n, section) for card, n, section in chosen))
    assert key(round_trip(database, deck, form)) == key(deck)


@pytest.mark.parametrize("form", OTHER_FORMS)
def test_a_section_a_form_cannot_hold_is_refused_by_name(database, form: str) -> None:
    deck = resolve_file(database, EXAMPLES / "meio-hand.txt").deck
    with pytest.raises(UsageError, match=r"no place for the section \[first half\]"):
        write_deck(deck, form)


# --- Cockatrice XML, hardened -------------------------------------------------------------------

COD = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
  <deckname>Goblins &amp; Friends</deckname>
  <zone name="main">
    <card number="3" name="Crumb Goblin"/>
    <card number="x" name="Puddle Knight"/>
  </zone>
  <zone name="tokens">
    <card number="1" name="Goblin Token"/>
  </zone>
  <zone name="side">
    <card number="2" name="Pep Talk"/>
  </zone>
</cockatrice_deck>
"""


def test_cod_zones_are_sections_and_bad_entries_name_their_line() -> None:
    deck = parse_cod(COD, "d.cod")
    assert deck.name == "Goblins & Friends"
    assert [(e.count, e.name, e.section, e.line) for e in deck.lines] == [
        (3, "Crumb Goblin", None, 5),
        (2, "Pep Talk", "sideboard", 12),
    ]
    assert [(p.code, p.line) for p in deck.problems] == [("bad-count", 6), ("bad-line", 8)]


@pytest.mark.parametrize(
    ("xml", "said"),
    [
        (
            '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
            "<cockatrice_deck><deckname>&b;</deckname></cockatrice_deck>",
            "no DOCTYPE",
        ),
        ('<!DOCTYPE d SYSTEM "file:///etc/passwd"><cockatrice_deck/>', "no DOCTYPE"),
        ("<cockatrice_deck>" + "<zone>" * MAX_XML_DEPTH + "</zone>" * MAX_XML_DEPTH + "</cockatrice_deck>", "deeper"),
        ("<cockatrice_deck>\n<zone name='main'>\n<card number='1' name='A'>\n</cockatrice_deck>", "line 4: not well"),
        ("<html><body/></html>", "not <cockatrice_deck>"),
    ],
)
def test_hostile_or_broken_xml_is_refused_with_one_line(xml: str, said: str) -> None:
    with pytest.raises(UnreadableInput, match=said) as error:
        parse_deck_text(xml, "d.cod")
    assert str(error.value).startswith("d.cod: line ")


def _cod(body: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n{body}\n</cockatrice_deck>\n'


PEP = '<card number="1" name="Pep Talk"/>'


@pytest.mark.parametrize(
    ("body", "line", "said"),
    [
        ("<deckname>A</deckname>\n<deckname>B</deckname>", 4, "a second <deckname> (the first is on line 3)"),
        (f'<zone name="main">\n<zone name="side">\n{PEP}\n</zone>\n</zone>', 4, "a <zone> inside a <zone>"),
        (PEP, 3, "a <card> outside a <zone>"),
        (f'<zone name="main"/>\n{PEP}', 4, "a <card> outside a <zone>"),
        ("<deck_notes>Play it fast</deck_notes>", 3, "<deck_notes> is not part"),
        (
            '<zone name="main">\n<card number="1" name="Pep Talk"><comments>x</comments></card>\n</zone>',
            4,
            "<comments> is not part",
        ),
        ('<zone name="main">\n<card number="1" name="Pep Talk" foil="yes"/>\n</zone>', 4, "'foil'"),
        ('<zone name="main">\n<card number="1" name="Pep Talk">note</card>\n</zone>', 4, "<card> holds text"),
        ('<zone name="main">\n<card number="1" name="Pep Talk" setShortName="my_set"/>\n</zone>', 4, "setShortName"),
    ],
)
def test_nothing_a_cod_deck_holds_is_dropped_or_overridden(body: str, line: int, said: str) -> None:
    """A second deck name (the last won), a zone in a zone, a card outside a zone (read as the main
    deck's, or the last zone's), text or elements a deck here has no place for: a problem on its line."""
    deck = parse_cod(_cod(body), "d.cod")
    errors = [p for p in deck.problems if p.severity == "error"]
    assert [(p.line, said in p.message) for p in errors] == [(line, True)], errors


def test_cockatrices_notes_on_a_deck_are_read_past_as_comments() -> None:
    """What Cockatrice writes beside the cards (the deck's comments, its banner card, its tags, when it
    was last opened) is a note on the deck, read past as a text list's ``#`` comments; the cards are read."""
    body = (
        "<lastLoadedTimestamp>2026-12-01T10:00:00</lastLoadedTimestamp>\n<deckname>G</deckname>\n"
        "<comments>Play it fast.\nMulligan hands without a 1-drop.</comments>\n"
        '<bannerCard providerId="abc">Crumb Goblin</bannerCard>\n<tags>\n<tag>aggro</tag>\n</tags>\n'
        "<zone name='main'>\n<card number='2' name='Crumb Goblin'/>\n</zone>"
    )
    deck = parse_cod(_cod(body), "d.cod")
    assert deck.problems == [] and deck.name == "G"
    assert [(e.count, e.name) for e in deck.lines] == [(2, "Crumb Goblin")]


def test_an_empty_comment_and_other_tools_card_fields_are_kept_or_read() -> None:
    """Cockatrice writes <comments/> empty; its card's set is our set, its collector number and uuid
    identify a printing (as Arena's number, not needed here)."""
    body = (
        "<deckname>G</deckname>\n<comments></comments>\n<zone name='main'>\n"
        "<card number='2' name='Crumb Goblin' setShortName='demo' collectorNumber='12' uuid='u-1'/>\n</zone>"
    )
    deck = parse_cod(_cod(body), "d.cod")
    assert deck.problems == [] and [(e.count, e.name, e.set) for e in deck.lines] == [(2, "Crumb Goblin", "demo")]


# --- share links --------------------------------------------------------------------------------


def test_a_share_link_gives_its_code_and_a_bare_code_is_itself() -> None:
    assert code_of("AwAAAAEB") == "AwAAAAEB"
    for link in (
        "http://127.0.0.1:8765/decks/new?code=AwAAAAEB",
        "https://cards.example.org/base/decks/new?code=AwAAAAEB&x=1",
        "/decks/new?code=AwAAAAEB",
    ):
        assert code_of(f"  {link}\n") == "AwAAAAEB", link
    for bad in ("http://127.0.0.1:8765/decks/new", "http://h/decks/new?code=", "http://h/?code=a&code=b"):
        with pytest.raises(UsageError, match="share link must carry one code="):
            code_of(bad)
    with pytest.raises(UsageError, match="at most 100,000 characters"):
        code_of("A" * 100_001)


def test_deck_decode_takes_the_web_apps_share_link_and_export_writes_each_form(db_url: str, tmp_path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli.app import app

    def run(*args: str):
        return CliRunner().invoke(app, [*args, "--db", db_url], catch_exceptions=False)

    deck = str(EXAMPLES / "mea-goblin-rush.txt")
    code = run("deck", "encode", deck).stdout.strip()
    from_code = run("deck", "decode", code)
    from_link = run("deck", "decode", f"http://127.0.0.1:8765/decks/new?code={code}")
    assert from_link.exit_code == 0 and from_link.stdout == from_code.stdout
    bad = run("deck", "decode", "http://127.0.0.1:8765/decks/new?name=x")
    assert bad.exit_code == 2 and "share link must carry one code=" in bad.output
    for form in OTHER_FORMS:
        path = tmp_path / f"deck.{form}"
        assert run("deck", "export", deck, "--format", form, "-o", str(path)).exit_code == 0
        assert run("deck", "validate", str(path)).exit_code == 0, form
    unknown = run("deck", "export", deck, "--format", "dek")
    assert unknown.exit_code == 2 and "'--format': 'dek' is not one of text, json, code, arena" in unknown.output
