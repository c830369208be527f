"""``cardbase render`` and ``cardbase print`` through Typer's runner: files, summaries, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from cardbase.cli.app import app
from tests.render.conftest import read_page

runner = CliRunner()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(db_url: str, *args: str):
    return runner.invoke(app, [*args, "--db", db_url])


def test_print_set_demo_with_backs_to_the_default_file(db_url: str, in_tmp: Path) -> None:
    result = run(db_url, "print", "set", "mea", "--set", "demo", "--backs", "--bleed", "0.125in", "--margin", "3mm")
    assert result.exit_code == 0, result.output
    out = in_tmp / "exports" / "mea-demo.pdf"
    assert f"wrote {Path('exports') / 'mea-demo.pdf'}" in result.stdout and "72 cards" in result.stdout
    assert "no art for 72 of 72" in result.stderr  # one warning line, not 72
    assert result.stderr.count("no art for") == 1 and result.stderr.count("warning:") <= 2  # and small type
    assert "note: the bleed costs cards: A4 with 3.17 mm bleed fits 4 cards; ≤ 1 mm keeps 9" in result.stderr
    assert str(in_tmp) not in result.stdout
    reader = PdfReader(out)
    placed, _ = read_page(reader, 0)
    assert all(p.w == pytest.approx(63 + 2 * 3.175, abs=0.1) for p in placed)
    assert reader.metadata.title == "cardbase demo set — cardbase proxies"
    assert (in_tmp / "card_images" / ".cache" / "faces").is_dir()


def test_print_set_meikyu_reports_unknown_counts_and_prints_gotcha_four_times(db_url: str, in_tmp: Path) -> None:
    result = run(db_url, "print", "set", "meikyu", "-o", "meikyu.pdf", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["cards"] == 39 - 1 + 4 and report["unique_faces"] == 39
    assert any("unknown count" in n for n in report["notes"])
    assert report["pages"] == 5 and report["grid"] == [3, 3]


def test_print_set_meio_and_tiles(db_url: str, in_tmp: Path) -> None:
    meio = run(db_url, "print", "set", "meio", "--paper", "letter", "--card-size", "2.5x3.5in", "--json")
    assert meio.exit_code == 0, meio.output
    data = json.loads(meio.stdout)
    assert data["cards"] == 52 and data["missing_art"] == []
    # 2.5×3.5 in cards go 3×2 on portrait letter: 8 a sheet on landscape letter save two sheets
    turned = "landscape paper takes 7 sheets where this takes 9 (8 per sheet, not 6): --paper 279.4x215.9mm"
    assert data["notes"] == [turned]
    tiles = run(db_url, "print", "tiles", "--backs", "--json")
    assert tiles.exit_code == 0, tiles.output
    data = json.loads(tiles.stdout)
    # 130×92 mm tiles (two cards each), three to an A4 sheet: six sheets, fronts and backs
    assert data["cards"] == 18 and data["unique_faces"] == 2 and data["pages"] == 12


def test_print_registration(db_url: str, in_tmp: Path) -> None:
    result = runner.invoke(app, ["print", "registration", "--paper", "letter", "--flip", "short-edge"])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(in_tmp / "exports" / "registration-letter.pdf").pages) == 2


def test_render_card_png(db_url: str, in_tmp: Path) -> None:
    result = run(db_url, "render", "card", "creme golem", "-o", "golem.png", "--dpi", "120")
    assert result.exit_code == 0, result.output
    with Image.open(in_tmp / "golem.png") as img:
        assert img.size == (round(63 / 25.4 * 120), round(88 / 25.4 * 120))
    assert result.stderr.count("warning:") == 1 and "creme-golem.png" in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("render", "card", "Selountica"), 1, "did you mean 'Selounticia'"),
        (("render", "card", "Bee", "-o", "bee.gif"), 2, ".png or .pdf"),
        (("print", "set", "mea", "--paper", "a7"), 2, "bad --paper 'a7'"),
        (("print", "set", "mea", "--bleed", "3 furlongs"), 2, "bad --bleed"),
        (("print", "set", "mea", "--card-size", "250x300mm"), 2, "does not fit"),
        (("print", "set", "mea", "--flip", "sideways"), 2, "long-edge or short-edge"),
        (("print", "set", "chess"), 2, "unknown game"),
        (("print", "set", "mea", "--set", "expansion"), 2, "no set 'expansion'"),
    ],
)
def test_user_errors_are_one_message_and_an_exit_code(db_url: str, args, code: int, message: str) -> None:
    result = run(db_url, *args)
    assert result.exit_code == code, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output and result.stderr.count("\n") == 1


def test_a_corrupt_art_file_prints_a_placeholder_with_one_warning_naming_it(db_url: str, in_tmp: Path) -> None:
    bad = in_tmp / "card_images" / "mea" / "puddle-knight.png"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not a png at all")
    result = run(db_url, "print", "set", "mea", "--set", "demo", "--copies", "2")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    [line] = [x for x in result.stderr.splitlines() if "puddle-knight" in x]
    assert line.startswith("warning: Puddle Knight: art card_images/mea/puddle-knight.png cannot be used")
    assert "drew a placeholder" in line and str(in_tmp) not in result.stderr
    assert (in_tmp / "exports" / "mea-demo.pdf").is_file()


def test_cli_modules_import_only_typer_at_start_up() -> None:
    code = (
        "import sys, cardbase.cli.print, cardbase.cli.render;"
        "heavy = [m for m in ('PIL', 'reportlab', 'sqlalchemy', 'rich', 'matplotlib') if m in sys.modules];"
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_print_deck_prints_each_card_as_often_as_the_deck_has_it(db_url: str, in_tmp: Path) -> None:
    deck = in_tmp / "rush.txt"
    deck.write_text("game: mea\nname: Rush\n3 Crumb Goblin\n2x puddle knight\n1 Crème Golem\n", encoding="utf-8")
    result = run(db_url, "print", "deck", str(deck), "--backs", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["cards"] == 6 and report["unique_faces"] == 3 and report["pages"] == 2
    reader = PdfReader(in_tmp / "exports" / "rush.pdf")
    assert reader.metadata.title == "Rush — cardbase proxies"
    fronts, _ = read_page(reader, 0)
    assert [p.name for p in fronts].count(fronts[0].name) == 3


def test_print_deck_refuses_unknown_names_with_their_lines(db_url: str, in_tmp: Path) -> None:
    deck = in_tmp / "bad.txt"
    deck.write_text("game: mea\n3 Crumb Goblin\n2 Goblen Surveyor\n", encoding="utf-8")
    result = run(db_url, "print", "deck", str(deck))
    assert result.exit_code == 1
    assert "line 3" in result.stderr and "Goblin Surveyor" in result.stderr and "Traceback" not in result.output
    assert not (in_tmp / "exports").exists()


def test_registration_test_leads_a_print_without_backs(db_url: str) -> None:
    result = run(db_url, "print", "set", "meio", "--registration-test")
    assert result.exit_code == 0, result.output
    assert "on 7 sheets (the first a registration test), 8 pages" in result.stdout
    data = json.loads(run(db_url, "print", "set", "meio", "--registration-test", "--json").stdout)
    assert (data["sheets"], data["pages"]) == (6, 8)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--dpi", "4800"), "--dpi 4800 is out of range: use 30 to 2400"),
        (("--dpi", "2400", "--card-size", "250x300mm", "--paper", "a3"), "over the bound of 60; use --dpi 718 or less"),
        (("--copies", "0"), "--copies 0 is out of range: use 1 to 100"),
        (("--copies", "101"), "--copies 101 is out of range"),
        # as typed, not as '1e+12'
        (("--dpi", "1000000000000"), "--dpi 1000000000000 is out of range: use 30 to 2400"),
        (("--copies", "1000000000000"), "--copies 1000000000000 is out of range: use 1 to 100"),
        (("--scale-x", "50"), "'--scale-x': 50% is out of range: use 90% to 110%"),
        (("--scale-y", "120"), "'--scale-y': 120% is out of range"),
        (("--back-offset", "20,0"), "--back-offset 20,0 is out of range: each of X and Y within ±10 mm"),
        (("--back-offset", "1"), "bad --back-offset '1': write X,Y in mm"),
        (("--printer-margin", "30mm"), "--printer-margin 30mm is out of range: at most 20 mm"),
        (("--bleed", "20mm"), "--bleed 20mm is out of range: at most 10 mm"),
        (("--gap", "1in"), "--gap 1in is out of range: at most 20 mm"),
        (("--back-order", "random"), "bad --back-order 'random'"),
    ],
)
def test_every_option_has_a_bound_with_a_message(db_url: str, in_tmp: Path, args, message: str) -> None:
    result = run(db_url, "print", "set", "meio", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert not (in_tmp / "exports").exists()


def test_render_refuses_a_raster_too_big_before_drawing(db_url: str, in_tmp: Path) -> None:
    result = run(db_url, "render", "card", "creme golem", "--dpi", "2400", "--card-size", "400x400mm")
    assert result.exit_code == 2 and "megapixels, over the bound of 60" in result.stderr


def test_copies_print_the_whole_deck_again(db_url: str, in_tmp: Path) -> None:
    once = json.loads(run(db_url, "print", "set", "meio", "--json", "-o", "a.pdf").stdout)
    twice = json.loads(run(db_url, "print", "set", "meio", "--json", "--copies", "2", "-o", "b.pdf").stdout)
    assert (once["cards"], twice["cards"]) == (52, 104) and twice["unique_faces"] == 52


def test_print_query_prints_every_matching_card(db_url: str, in_tmp: Path) -> None:
    result = run(db_url, "print", "query", "game:mea t:monster cost<=2", "--json", "-o", "q.pdf")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    search = run(db_url, "cards", "search", "game:mea t:monster cost<=2", "--json", "--limit", "500")
    assert data["cards"] == data["unique_faces"] == len(json.loads(search.stdout)) > 0
    bad = run(db_url, "print", "query", "game:mea cost<=")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    none = run(db_url, "print", "query", "game:mea t:monster cost>=99")
    assert none.exit_code == 2 and "matches no card" in none.stderr


def test_print_deck_one_per_page_and_split_backs(db_url: str, in_tmp: Path) -> None:
    deck = in_tmp / "rush.txt"
    deck.write_text("game: mea\n3 Crumb Goblin\n1 Crème Golem\n", encoding="utf-8")
    result = run(db_url, "print", "deck", str(deck), "--one-per-page", "--bleed", "3mm", "--backs", "--split-backs")
    assert result.exit_code == 0, result.output
    assert "one card per page, 4 pages" in result.stdout and "rush-backs.pdf" in result.stdout
    fronts, backs = PdfReader(in_tmp / "exports" / "rush.pdf"), PdfReader(in_tmp / "exports" / "rush-backs.pdf")
    assert len(fronts.pages) == len(backs.pages) == 4
    assert [round(float(v) * 25.4 / 72, 2) for v in fronts.pages[0].trimbox] == [3, 3, 66, 91]


def test_export_images_writes_pngs_in_deck_order_and_a_manifest(db_url: str, in_tmp: Path) -> None:
    import csv

    deck = in_tmp / "rush.txt"
    deck.write_text("game: mea\n3 Crumb Goblin\n1 Crème Golem\n2 puddle knight\n", encoding="utf-8")
    result = run(db_url, "export", "images", str(deck), "-o", "out", "--dpi", "100", "--bleed", "3mm")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((in_tmp / "out" / "manifest.csv").open(encoding="utf-8")))
    assert [(r["file"], r["side"], r["count"], r["set"]) for r in rows] == [
        ("001-crumb-goblin.png", "front", "3", "demo"),  # cardbase's own demo cards, said in the manifest too
        ("002-creme-golem.png", "front", "1", "demo"),
        ("003-puddle-knight.png", "front", "2", "demo"),
        ("back-mea-back.png", "back", "6", ""),
    ]
    assert "demo" in rows[0]["source"]
    with Image.open(in_tmp / "out" / "001-crumb-goblin.png") as img:
        assert img.size == (round(69 / 25.4 * 100), round(94 / 25.4 * 100))
        assert round(img.info["dpi"][0]) == 100
    again = run(db_url, "export", "images", str(deck), "-o", "out", "--dpi", "100", "--bleed", "3mm", "--json")
    assert json.loads(again.stdout)["cached"] == 4  # the second export reuses the rendered faces
    (in_tmp / "busy").mkdir()
    (in_tmp / "busy" / "thesis.txt").write_text("mine", encoding="utf-8")
    refused = run(db_url, "export", "images", str(deck), "-o", "busy")
    assert refused.exit_code == 2 and "not empty" in refused.stderr
    assert (in_tmp / "busy" / "thesis.txt").read_text(encoding="utf-8") == "mine"


def test_registration_cli_prints_its_options(db_url: str, in_tmp: Path) -> None:
    result = runner.invoke(app, ["print", "registration", "--paper", "297x210mm", "--scale-x", "99.2"])
    assert result.exit_code == 0, result.output
    text = PdfReader(in_tmp / "exports" / "registration-297x210mm.pdf").pages[0].extract_text()
    assert "printed with: --paper 297x210mm --scale-x 99.2" in text


def test_a_bad_layout_file_is_one_message_and_nothing_is_written(db_url: str, in_tmp: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    good = (root / "examples" / "layouts" / "mea-plain.toml").read_text(encoding="utf-8")
    (in_tmp / "bad.toml").write_text(good.replace('size = "11pt"', 'size = "11 furlongs"'), encoding="utf-8")
    result = run(db_url, "print", "set", "mea", "--set", "demo", "--layout", "bad.toml")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "bad.toml: table [layouts.mea-monster.elements[2]], key 'size': bad length" in result.stderr
    assert result.stderr.count("\n") == 1
    assert not (in_tmp / "exports").exists()
    (in_tmp / "good.toml").write_text(good, encoding="utf-8")
    ok = run(db_url, "print", "set", "mea", "--set", "demo", "--layout", "good.toml", "--json")
    assert ok.exit_code == 0, ok.output
    shown = run(
        db_url,
        "export",
        "images",
        str(root / "examples/decks/mea-goblin-rush.txt"),
        "--layout",
        "good.toml",
        "--dpi",
        "60",
        "-o",
        "imgs",
    )
    assert shown.exit_code == 0, shown.output


@pytest.mark.parametrize("given", ["--1,0", "+-2,0", "-+-1,0", "0,--1", "++1,0", "0,-+0.5mm"])
def test_a_back_offset_with_more_than_one_sign_is_refused(given: str) -> None:
    """One sign at most to each of X and Y: ``+-2`` was read as +2 and ``--1`` as -1 (every sign
    stripped, the first one kept), a misprint printed as something else."""
    from cardbase.errors import UsageError
    from cardbase.render.options import parse_offset

    with pytest.raises(UsageError, match="--back-offset"):
        parse_offset(given)


def test_a_back_offset_takes_one_sign_each() -> None:
    from cardbase.render.options import parse_offset

    assert parse_offset("-1,+2") == (-1.0, 2.0)
    assert parse_offset(" 0.5mm , -1mm ") == (0.5, -1.0)
