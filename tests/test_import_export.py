"""Importing designers' spreadsheets and exporting catalogs: row-precise errors, all or nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import Workbook
from sqlalchemy import select

from cardbase.db.engine import open_database
from cardbase.db.io import export_catalog, import_catalog
from cardbase.db.models import Card, CardAlias
from cardbase.errors import InvalidData, UnreadableInput, UsageError


def snapshot(database) -> list[dict]:
    with database.session() as s:
        cards = [c.model_dump() for c in s.scalars(select(Card).order_by(Card.id))]
        aliases = [
            (a.card_id, a.alias) for a in s.scalars(select(CardAlias).order_by(CardAlias.card_id, CardAlias.alias))
        ]
    return cards + [{"alias": a} for a in aliases]


def write_csv(path: Path, text: str, *, bom: bool = False, crlf: bool = False) -> Path:
    data = text.replace("\n", "\r\n") if crlf else text
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data.encode("utf-8"))
    return path


def test_csv_with_bom_and_crlf_and_synonym_headers(database, tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "cards.csv",
        "Name,Type,Mana,ATK,Defense,Text,Description,Set\n"
        'Selounticia,monster,4,5,3,"When summoned: Draw 1 card.",A sample,core\n'
        'Brand New Beast,monster,2,2,3,,"Says ""moo""",designer\n',
        bom=True,
        crlf=True,
    )
    result = import_catalog(database, path, "mea")
    assert (result.inserted, result.updated, result.rows) == (1, 1, 2)
    with database.session() as s:
        sel = s.get(Card, "mea/core/selounticia")
        assert (sel.cost, sel.attack, sel.defence, sel.source) == (4, 5, 3, "file:cards.csv")
        assert sel.unknown == ""
        beast = s.get(Card, "mea/designer/brand-new-beast")
        assert beast.description == 'Says "moo"' and beast.text is None


def test_every_bad_row_is_reported_and_nothing_is_written(database, tmp_path: Path) -> None:
    before = snapshot(database)
    path = write_csv(
        tmp_path / "bad.csv",
        "name,type,cost,attack,defence\n"
        "Good One,monster,1,1,1\n"
        "Bad Cost,monster,three,1,1\n"
        ",monster,1,1,1\n"
        "Bad Type,wizard,1,1,1\n"
        "Negative,monster,-2,1,1\n"
        "Good One,monster,2,2,2\n"
        "Fraction,monster,1.5,1,1\n",
    )
    with pytest.raises(InvalidData) as error:
        import_catalog(database, path, "mea")
    problems = error.value.problems
    assert problems == [
        "row 3, column 'cost': a whole number (or empty or ? for unknown), not 'three'",
        "row 4, column 'name': the card has no name",
        "row 5, column 'type': 'wizard' is not a mea card type (monster, assist, tile)",
        "row 6, column 'cost': must be from 0 to 1000000, not -2",
        "row 7, column 'name': 'Good One' is already on row 2",
        "row 8, column 'cost': a whole number, not '1.5'",
    ]
    assert snapshot(database) == before


def test_an_unknown_column_is_refused_naming_it(database, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "typo.csv", "name,type,atack\nX,monster,3\n")
    with pytest.raises(InvalidData, match="column 'atack': not a mea card field"):
        import_catalog(database, path, "mea")


def test_a_sheet_of_another_game_is_refused_in_one_line_naming_its_game(database, tmp_path: Path) -> None:
    """The Meikyu template imported with --game mea was six lines, one a column, each listing Méa's
    columns: now one line says whose columns they are and which --game reads them."""
    before = snapshot(database)
    path = write_csv(tmp_path / "meikyu.csv", "name,land_name,type,level,bravery\nCook,,character,,\n")
    with pytest.raises(InvalidData) as refused:
        import_catalog(database, path, "mea")
    assert refused.value.problems == [
        "row 1: the columns 'land_name', 'level', 'bravery' are meikyu card fields, not mea: "
        "is this a meikyu file? import it as meikyu's (--game meikyu)"
    ]
    assert snapshot(database) == before
    typo = write_csv(tmp_path / "typo.csv", "name,type,level,atack\nX,monster,,3\n")  # a typo too: a line each
    with pytest.raises(InvalidData) as each:
        import_catalog(database, typo, "mea")
    assert [p.split(":")[0] for p in each.value.problems] == ["row 1, column 'level'", "row 1, column 'atack'"]


def test_a_new_card_without_a_type_is_refused(database, tmp_path: Path) -> None:
    before = snapshot(database)
    path = write_csv(tmp_path / "notype.csv", "name,cost\nSelounticia,4\nMystery,2\n")
    with pytest.raises(InvalidData, match="row 3, column 'type': a new card needs a type"):
        import_catalog(database, path, "mea")
    assert snapshot(database) == before


def test_dry_run_counts_but_writes_nothing(database, tmp_path: Path) -> None:
    before = snapshot(database)
    path = write_csv(tmp_path / "c.csv", "name,type,cost\nSelounticia,monster,4\nNew,assist,1\n")
    result = import_catalog(database, path, "mea", dry_run=True)
    assert (result.inserted, result.updated, result.dry_run) == (1, 1, True)
    assert snapshot(database) == before


def test_meikyu_values_by_alias_and_count(database, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "meikyu.csv", "name,type,bravery,wits,count\nCock,character,2,3,4\nGrimor,item,,,5\n")
    result = import_catalog(database, path, "meikyu")
    assert (result.inserted, result.updated) == (0, 2)
    with database.session() as s:
        cook = s.get(Card, "meikyu/core/cook")
        assert (cook.bravery, cook.wits, cook.copies, cook.unknown) == (2, 3, 4, "")
        grimoire = s.get(Card, "meikyu/core/grimoire")
        assert grimoire.copies == 5 and grimoire.text  # empty cells kept the rulebook text


def test_xlsx_import_with_row_numbers(database, tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Name", "Land_Name", "Type", "Level", "Points", "Developed_Points"])
    ws.append(["Den of the Geister", "Marketplace", "land", 4, 1, 2])
    ws.append([None, None, None, None, None, None])  # a blank row, skipped
    ws.append(["Den of the Gourmet", "Kitchen", "land", "x", 1, 2])
    path = tmp_path / "lands.xlsx"
    wb.save(path)
    with pytest.raises(InvalidData, match=r"row 4, column 'Level': a whole number"):
        import_catalog(database, path, "meikyu")
    ws.delete_rows(4)
    wb.save(path)
    import_catalog(database, path, "meikyu")
    with database.session() as s:
        den = s.get(Card, "meikyu/core/den-of-the-geister")
        assert (den.points, den.developed_points) == (1, 2)


def test_a_designers_600_card_spreadsheet_imports_in_one_go(database, tmp_path: Path) -> None:
    rows = ["name,type,cost,attack,defence,text,description,set"]
    rows += [
        f"Designer Card {i},{'monster' if i % 3 else 'assist'},{i % 8},"
        + (f"{i % 9},{1 + i % 7}," if i % 3 else ",,")  # an assist has no attack or defence
        + f'"When summoned: Draw {1 + i % 2} card.",flavour {i},alpha'
        for i in range(600)
    ]
    path = write_csv(tmp_path / "designer.csv", "\n".join(rows) + "\n")
    result = import_catalog(database, path, "mea")
    assert result.inserted == 600
    with database.session() as s:
        assert len(s.scalars(select(Card).where(Card.set_code == "alpha")).all()) == 600


def _values(db, game: str) -> list[tuple]:
    """Every stored value of ``game``'s cards, in id order."""
    with db.session() as s:
        cards = s.scalars(select(Card).where(Card.game == game).order_by(Card.id)).all()
        return [
            (
                c.id,
                c.short_id,
                c.type,
                c.name,
                c.search_names,
                c.unknown,
                *[
                    getattr(c, k)
                    for k in (
                        "text",
                        "description",
                        "land_name",
                        "cost",
                        "attack",
                        "defence",
                        "level",
                        "points",
                        "developed_points",
                        "bravery",
                        "wits",
                        "rank",
                        "suit",
                        "min_players",
                        "copies",
                        "notes",
                    )
                ],
            )
            for c in cards
        ]


def _fresh(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A new SQLite database with the games and no cards."""
    from cardbase.db.catalog import ensure_games

    fresh = open_database(f"sqlite:///{tmp_path / 'fresh.db'}", load_catalogs=False)
    with fresh.transaction() as s:
        ensure_games(s)
    return fresh


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
@pytest.mark.parametrize("game", ["mea", "meikyu", "meio"])
def test_export_then_import_gives_back_the_same_catalog(
    database, db_url: str, tmp_path: Path, fmt: str, game: str
) -> None:
    out = tmp_path / f"{game}.{fmt}"
    count = export_catalog(database, game, fmt, out)
    assert count > 0
    fresh = _fresh(tmp_path)
    import_catalog(fresh, out, game)

    assert _values(fresh, game) == _values(database, game)
    fresh.engine.dispose()


# Cards of each game with unknown values (NULL) beside fields their type does not have (N/A).
HOLES = {
    "mea": "name,type,cost,attack,defence,set\nVague Imp,monster,2,,,holes\nOdd Trick,assist,,,,holes\n"
    "Blank Tile,tile,,,,holes\n",
    "meikyu": "name,type,level,wits,set\nNameless Room,land,2,,holes\nMystery Hero,character,,3,holes\n"
    "Odd Relic,item,,,holes\n",
    "meio": "name,type,rank,suit,set\nBlank Card,playing card,,,holes\n",
}
# What a CSV or XLSX export says of them: ``?`` unknown, empty where the field does not apply.
HOLE_CELLS = {
    "Vague Imp": {"cost": "2", "attack": "?", "defence": "?", "copies": ""},
    "Odd Trick": {"cost": "?", "attack": "", "defence": "", "copies": ""},
    "Blank Tile": {"cost": "", "attack": "", "defence": "", "copies": "?"},
    "Nameless Room": {"level": "2", "land_name": "?", "text": "?", "points": "?", "developed_points": "?"}
    | {"bravery": "", "wits": "", "copies": ""},
    "Mystery Hero": {"bravery": "?", "wits": "3", "copies": "?", "level": "", "land_name": "", "text": ""},
    "Odd Relic": {"text": "?", "copies": "?", "level": "", "points": "", "bravery": ""},
    "Blank Card": {"rank": "?", "suit": "?", "min_players": "?"},
}


def _exported_rows(out: Path, fmt: str) -> dict[str, dict[str, str]]:
    """The rows of an exported CSV or XLSX catalog by card name, every cell as text ("" when empty)."""
    import csv

    if fmt == "csv":
        with out.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
    else:
        from openpyxl import load_workbook

        sheet = load_workbook(out, read_only=True).worksheets[0]
        rows = [["" if v is None else str(v) for v in row] for row in sheet.iter_rows(values_only=True)]
    header, *body = rows
    return {row[0]: dict(zip(header, row, strict=True)) for row in body}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_spreadsheet_export_tells_unknown_from_not_applicable(database, tmp_path: Path, fmt: str) -> None:
    """Not applicable is not unknown: an unknown value is ``?`` (as every table shows it, and as an
    import reads it), a field the card's type does not have is an empty cell (as an import wants it);
    both were empty cells."""
    for game, text in HOLES.items():
        import_catalog(database, write_csv(tmp_path / f"{game}-holes.csv", text), game)
    for game in HOLES:
        out = tmp_path / f"{game}.{fmt}"
        export_catalog(database, game, fmt, out)
        rows = _exported_rows(out, fmt)
        for name, cells in HOLE_CELLS.items():
            if name in rows:
                assert {c: rows[name][c] for c in cells} == cells, name
                assert rows[name]["notes"] == "" and rows[name]["tags"] == ""  # notes are no card values
        assert sum(name in rows for name in HOLE_CELLS) == sum(text.count("holes") for text in [HOLES[game]])
        sample = next(r for r in rows.values() if r["source"] == "rulebook")
        assert "?" not in {sample.get(c) for c in ("rank", "suit", "min_players", "land_name")}  # known: as they are


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_a_catalog_with_unknown_and_not_applicable_values_in_every_game_reads_back_the_same(
    database, tmp_path: Path, fmt: str
) -> None:
    for game, text in HOLES.items():
        import_catalog(database, write_csv(tmp_path / f"{game}-holes.csv", text), game)
    fresh = _fresh(tmp_path)
    for game in HOLES:
        out = tmp_path / f"{game}.{fmt}"
        export_catalog(database, game, fmt, out)
        import_catalog(fresh, out, game)
        assert _values(fresh, game) == _values(database, game), game
        with fresh.session() as s:
            room = s.get(Card, "meikyu/holes/nameless-room")
            assert room is None or (room.text, room.land_name) == (None, None)  # ``?`` read back as unknown
    fresh.engine.dispose()


def test_mea_abilities_import_as_json_cells_with_row_precise_errors(database, tmp_path: Path) -> None:
    import csv

    good = json.dumps([{"trigger": "summoned", "effect": "draw", "amount": 1}])
    rows = [
        ["name", "type", "cost", "attack", "defence", "text", "abilities json"],
        ["Librarian", "monster", "2", "1", "2", "When summoned: Draw 1 card.", good],
        ["Broken", "monster", "2", "1", "2", "", '[{"trigger": "never"}]'],
        ["Not Json", "monster", "2", "1", "2", "", "{oops"],
    ]
    path = tmp_path / "abilities.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with pytest.raises(InvalidData) as error:
        import_catalog(database, path, "mea")
    assert [p.split(":")[0] for p in error.value.problems] == [
        "row 3, column 'abilities json'",
        "row 4, column 'abilities json'",
    ]
    assert "not JSON" in error.value.problems[1]
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows[:2])
    import_catalog(database, path, "mea")
    with database.session() as s:
        assert json.loads(s.get(Card, "mea/core/librarian").abilities)[0]["effect"] == "draw"


def test_json_export_keeps_unknown_as_null(database, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    export_catalog(database, "meikyu", "json", out)
    cards = {c["name"]: c for c in json.loads(out.read_text(encoding="utf-8"))["cards"]}
    assert cards["Cook"]["bravery"] is None and "bravery" in cards["Cook"]


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (b"", UnreadableInput, "empty file"),
        (b"\x00\x01\x02binary", UnreadableInput, "binary"),
        (b"name,type\n\xff\xfe bad,monster\n", UnreadableInput, "line 2: not UTF-8"),
        (b"name,type\nA,monster,extra\n", InvalidData, "row 2: more cells than the header"),
        (b"type,cost\nmonster,1\n", InvalidData, "no 'name' column"),
        (b"name,type\n", InvalidData, "no cards"),
    ],
)
def test_unreadable_or_empty_csv(database, tmp_path: Path, content: bytes, error, message: str) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(content)
    with pytest.raises(error, match=message):
        import_catalog(database, path, "mea")


def test_bad_json_and_wrong_game(database, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"game": "mea", "cards": [', encoding="utf-8")
    with pytest.raises(UnreadableInput, match="line 1, column 27: invalid JSON"):
        import_catalog(database, path, "mea")
    path.write_text('{"game": "meio", "cards": []}', encoding="utf-8")
    with pytest.raises(UnreadableInput, match="for game 'meio', not 'mea'"):
        import_catalog(database, path, "mea")
    path.write_text('[{"name": "Z", "type": "monster", "attack": "high"}, 5]', encoding="utf-8")
    with pytest.raises(InvalidData) as err:
        import_catalog(database, path, "mea")
    assert err.value.problems == [
        "[0], column 'attack': a whole number (or empty or ? for unknown), not 'high'",
        "[1]: a card must be an object of field: value",
    ]


def test_missing_file_and_unknown_format(database, tmp_path: Path) -> None:
    with pytest.raises(UnreadableInput, match="no such file"):
        import_catalog(database, tmp_path / "nope.csv", "mea")
    (tmp_path / "x.txt").write_text("name\n", encoding="utf-8")
    with pytest.raises(UsageError, match="unknown format"):
        import_catalog(database, tmp_path / "x.txt", "mea")
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(UnreadableInput, match="not a readable XLSX"):
        import_catalog(database, tmp_path / "broken.xlsx", "mea")


CELLS = ["", " ", "0", "7", "07", " 7 ", "12", "1000000", "1000001", "3.0", "3.5", "-1", "?", "Unknown", "n/a",
         "٣", "５", "²", "1e3", "x", "  text  ", "'=1", "S", "hearts", "♠", "a; b", "[]", '["Draw 1 card."]', 3, 2.0,
         None, True, "9" * 5000, "0" * 20 + "7"]  # fmt: skip


@pytest.mark.parametrize("game", ["mea", "meio", "meikyu"])
def test_a_column_converter_gives_what_convert_gives(game: str) -> None:
    """``parse_rows`` converts a column's cells with a converter chosen once for the column, with a
    short cut for plain text and digits; every cell gives the value (or the reason) ``_convert`` gives."""
    from cardbase.catalog.fields import GAME_FIELDS
    from cardbase.db.io import _convert, _converter

    def outcome(convert, value):  # type: ignore[no-untyped-def]
        try:
            return convert(value)
        except ValueError as error:
            return f"ValueError: {error}"

    for field in GAME_FIELDS[game]:
        converter = _converter(field, typed=False)
        for cell in CELLS:
            assert outcome(converter, cell) == outcome(lambda v, f=field: _convert(f, v), cell), (field.name, cell)


def test_an_import_of_more_rows_than_a_statement_takes_writes_them_all_and_indexes_them(
    database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite an import inserts many rows per statement (``catalog.WRITE_BATCH`` at most): a file of
    several statements' rows is written whole, the search index in step with it."""
    from sqlalchemy import text

    from cardbase.db import catalog
    from cardbase.db.search import search_cards

    monkeypatch.setattr(catalog, "WRITE_BATCH", 7)
    rows = "".join(f"Batch Beast {i},monster,{i % 5},1,1,Roars {i} times.\n" for i in range(40))
    path = write_csv(tmp_path / "many.csv", "name,type,cost,atk,def,text\n" + rows)
    result = import_catalog(database, path, "mea")
    assert result.inserted == 40
    with database.session() as session:
        found = {r.name for r in search_cards(session, "o:roars", "mea", limit=None)}
        assert found == {f"Batch Beast {i}" for i in range(40)}
        assert [r.name for r in search_cards(session, 'o:"39 times"', "mea", limit=None)] == ["Batch Beast 39"]
        if database.engine.dialect.name == "sqlite":  # FTS5's own check of the index against the cards
            session.execute(text("INSERT INTO card_search (card_search, rank) VALUES ('integrity-check', 1)"))
    # the same cards again with a new text: updated (on SQLite through a temporary table, a batch at a time)
    rows = "".join(f"Batch Beast {i},monster,{i % 5},1,1,Whispers {i} times.\n" for i in range(40))
    result = import_catalog(database, write_csv(tmp_path / "again.csv", "name,type,cost,atk,def,text\n" + rows), "mea")
    assert (result.inserted, result.updated) == (0, 40)
    with database.session() as session:
        assert search_cards(session, "o:roars", "mea", limit=None) == []
        assert len(search_cards(session, "o:whispers", "mea", limit=None)) == 40
        assert [r.name for r in search_cards(session, 'o:"39 times"', "mea", limit=None)] == ["Batch Beast 39"]
        if database.engine.dialect.name == "sqlite":
            session.execute(text("INSERT INTO card_search (card_search, rank) VALUES ('integrity-check', 1)"))
            assert "card_update" not in {r[0] for r in session.execute(text("SELECT name FROM temp.sqlite_master"))}


def test_a_large_import_refreshes_postgresqls_statistics(database, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import text

    from cardbase.db import catalog

    if database.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's planner statistics (CARDBASE_TEST_POSTGRES is not set)")
    monkeypatch.setattr(catalog, "ANALYZE_AFTER", 3)
    stats = "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'card'"
    with database.engine.connect() as conn:
        before = conn.execute(text(stats)).scalar()
    path = write_csv(tmp_path / "few.csv", "name,type\nStat One,assist\nStat Two,assist\nStat Three,assist\n")
    import_catalog(database, path, "mea")
    with database.engine.connect() as conn:
        after = conn.execute(text(stats)).scalar()
    assert after is not None and after != before


def test_a_large_import_leaves_no_pending_trigram_entries(database, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL: a GIN index keeps new entries in a pending list that every search reads through
    until it is merged; an import merges it (``refresh_statistics``)."""
    from sqlalchemy import text

    from cardbase.db import catalog

    if database.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's GIN pending lists (CARDBASE_TEST_POSTGRES is not set)")
    monkeypatch.setattr(catalog, "ANALYZE_AFTER", 3)
    pending = "SELECT sum((pgstatginindex('ix_card_trgm_text')).pending_tuples)"
    with database.engine.begin() as conn:
        conn.execute(text("CREATE EXTENSION IF NOT EXISTS pgstattuple"))
    rows = "".join(f"Pending {i},assist,Draw {i} cards\n" for i in range(40))
    path = write_csv(tmp_path / "few.csv", "name,type,text\n" + rows)
    with monkeypatch.context() as patch:  # the import without the merge leaves entries pending
        patch.setattr(catalog, "_CLEAN_GIN", "SELECT 1")
        import_catalog(database, path, "mea")
    with database.engine.connect() as conn:
        assert conn.execute(text(pending)).scalar() > 0
    import_catalog(
        database, write_csv(tmp_path / "more.csv", "name,type,text\n" + rows.replace("Pending", "More")), "mea"
    )
    with database.engine.connect() as conn:
        assert conn.execute(text(pending)).scalar() == 0


def test_a_catalog_jsons_unknown_top_level_field_is_refused(database, tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"game": "mea", "sett": "mine", "cards": [{"name": "Z", "type": "monster"}]}', encoding="utf-8")
    with pytest.raises(UnreadableInput, match="'sett' is not a field of a catalog file"):
        import_catalog(database, path, "mea")


def test_a_catalog_jsons_set_name_names_a_new_set_and_must_match_an_old_one(database, tmp_path: Path) -> None:
    """The set's name was read past: it names the set the file makes, and another name for a set
    already there is refused rather than dropped."""
    from cardbase.db.models import CardSet

    path = tmp_path / "x.json"
    cards = [{"name": "Zed", "type": "monster"}]
    path.write_text(json.dumps({"game": "mea", "set": "mine", "set_name": "My Set", "cards": cards}), encoding="utf-8")
    import_catalog(database, path, "mea")
    with database.session() as s:
        assert s.get(CardSet, ("mea", "mine")).name == "My Set"
    path.write_text(json.dumps({"game": "mea", "set": "mine", "set_name": "Other", "cards": cards}), encoding="utf-8")
    with pytest.raises(InvalidData, match="set_name 'Other' is not the name of set 'mine' \\('My Set'\\)"):
        import_catalog(database, path, "mea")


def test_a_read_only_column_that_disagrees_with_its_row_is_refused(database, tmp_path: Path) -> None:
    """``game`` and ``id`` are written by export and not read: a row whose ``game`` is another game, or
    whose ``id`` is another card's (a name changed in the sheet: the import made a new card), was
    imported as if they said nothing."""
    before = snapshot(database)
    path = write_csv(
        tmp_path / "x.csv",
        "id,game,name,type,cost\n"
        "mea/core/selounticia,mea,Selounticia,monster,4\n"  # as exported: fine
        ",meikyu,Zed,monster,1\n"
        "mea/core/selounticia,mea,Selounticia Prime,monster,4\n",
    )
    with pytest.raises(InvalidData) as err:
        import_catalog(database, path, "mea")
    said = " ".join(err.value.problems)
    assert "row 3, column 'game': 'meikyu' is not the game imported (mea)" in said, said
    assert "row 4, column 'id': the card mea/core/selounticia is 'Selounticia', not 'Selounticia Prime'" in said, said
    assert snapshot(database) == before


def test_an_xlsx_whose_other_sheets_hold_cells_is_refused_naming_the_sheet(database, tmp_path: Path) -> None:
    """Only the first sheet is read: the rows of a second were dropped unseen (an empty one is fine)."""
    wb = Workbook()
    wb.active.append(["name", "type"])
    wb.active.append(["Zed", "monster"])
    wb.create_sheet("Notes")
    more = wb.create_sheet("More cards")
    more.append(["name", "type"])
    more.append(["Zara", "monster"])
    path = tmp_path / "two.xlsx"
    wb.save(path)
    with pytest.raises(UnreadableInput, match="sheet 'More cards' holds cells; only the first sheet"):
        import_catalog(database, path, "mea")
    wb.remove(more)
    wb.save(path)
    assert import_catalog(database, path, "mea").inserted == 1


def test_an_import_that_changes_a_text_without_its_abilities_says_they_were_cleared(database, tmp_path: Path) -> None:
    """A card's encoded abilities no longer say what a new text says, so they are cleared; the import
    said nothing of it. It now names each such card (a warning: the import goes through)."""
    good = json.dumps([{"trigger": "summoned", "effect": "draw", "amount": 1}])
    first = tmp_path / "a.json"
    card = {"name": "Librarian", "type": "monster", "text": "When summoned: Draw 1 card.", "abilities": good}
    first.write_text(json.dumps([card | {"abilities": json.loads(good)}]), encoding="utf-8")
    assert import_catalog(database, first, "mea").warnings == []
    second = write_csv(tmp_path / "b.csv", "name,text\nLibrarian,When summoned: Draw 2 cards.\n")
    result = import_catalog(database, second, "mea")
    assert result.warnings == [
        "row 2: 'Librarian': its encoded abilities are cleared with its new text; give them in the "
        "'abilities' column to keep them"
    ]
    assert result.as_dict(str(second), "mea")["warnings"] == result.warnings
    with database.session() as s:
        assert s.get(Card, "mea/core/librarian").abilities is None


def test_an_aliases_cell_that_leaves_out_a_cards_alias_says_it_is_kept(database, tmp_path: Path) -> None:
    """An import adds aliases and never removes one (an old name finds its card): an alias the cell
    left out was kept unseen; the import now says so, naming the command that sets them."""
    path = write_csv(tmp_path / "a.csv", "name,aliases\nCook,Chef\n")
    result = import_catalog(database, path, "meikyu")
    assert result.warnings == [
        "row 2: 'Cook': keeps the alias 'Cock', which the cell leaves out (an import adds aliases, never "
        "removes one: `cardbase catalog edit meikyu/core/cook aliases=…` sets them)"
    ]
