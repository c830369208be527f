"""Layouts from a TOML file: they replace a card kind's layout; every bad key is one message naming
the file, the table and the key; the JSON Schema in schema/ is the file model's."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import jsonschema
import pytest

from cardbase.db.models import Card
from cardbase.errors import InvalidData, UnreadableInput
from cardbase.render import fonts
from cardbase.render.face import TextOp, compose
from cardbase.render.layout import LAYOUTS
from cardbase.render.layout_file import layout_schema, load_layout_file, use_layouts
from cardbase.render.printing import print_cards
from cardbase.render.sheet import SheetSpec
from cardbase.render.values import face_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "layouts" / "mea-plain.toml"


def test_the_schema_file_is_the_models_and_accepts_the_example() -> None:
    on_disk = json.loads((ROOT / "schema" / "layout.schema.json").read_text(encoding="utf-8"))
    assert on_disk == layout_schema()
    jsonschema.validate(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")), on_disk)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"layouts": {"mea-monster": {"background": "#000", "elements": [], "x": 1}}}, on_disk)


def test_a_layout_file_replaces_the_kinds_layout_with_its_own_font(cards: dict[str, Card], tmp_path: Path) -> None:
    shutil.copy(fonts.font_path("sans"), tmp_path / "mine.ttf")
    text = EXAMPLE.read_text(encoding="utf-8").replace('# mono = "fonts/MyMono.ttf"', 'mono = "mine.ttf"')
    text = text.replace('font = "serif-bold"', 'font = "mono"')
    (tmp_path / "mine.toml").write_text(text, encoding="utf-8")
    layouts = load_layout_file(tmp_path / "mine.toml")
    goblin = cards["Crumb Goblin"]
    before = LAYOUTS["mea-monster"]
    with use_layouts(layouts):
        face = compose("mea-monster", face_values(goblin), (63, 88))
        out = tmp_path / "mine.pdf"
        print_cards([(goblin, 1)], out, SheetSpec(), title="t", images=tmp_path / "card_images")
    assert LAYOUTS["mea-monster"] is before  # restored
    texts = [op for op in face.ops if isinstance(op, TextOp)]
    assert texts[0].text == "Crumb Goblin" and texts[0].font.startswith("file-")
    assert any(op.text == "cost 1 · attack 1 · defence 2" for op in texts)
    assert face.background == "#203040"
    from pypdf import PdfReader

    assert "cost 1 · attack 1 · defence 2" in PdfReader(out).pages[0].extract_text()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('size = "11pt"', 'size = "11 furlongs"'), "table [layouts.mea-monster.elements[2]], key 'size': bad length"),
        (('radius = "3mm"', 'radios = "3mm"'), "table [layouts.mea-monster.elements[1]], key 'radios': is not a field"),
        (('fill = "#f4f1ea"', 'fill = "beige"'), "table [layouts.mea-monster.elements[1]], key 'fill': bad colour"),
        (('content = "{text}"', 'content = "{rules}"'), "key 'content': unknown field {rules}"),
        (('font = "serif-bold"', 'font = "comic"'), "key 'font': unknown font 'comic'"),
        (("[layouts.mea-monster]", "[layouts.mea-monstr]"), "table [layouts], key 'mea-monstr': unknown layout"),
        (("box = [5, 5, 53, 9]", 'box = [5, 5, "x", 9]'), "table [layouts.mea-monster.elements[2]], key 'box[3]'"),
        (('kind = "rect"', 'kind = "blob"'), "table [layouts.mea-monster.elements[1]], key 'kind'"),
        (('placeholder = "monster"', 'placeholder = "dragon"'), "key 'placeholder': unknown placeholder"),
        (('# mono = "fonts/MyMono.ttf"', 'mono = "fonts/missing.ttf"'), "table [fonts], key 'mono': font file"),
        (("min_size = 7", "min_size = 900"), "key 'min_size': type size 900pt is out of range"),
        (("min_size = 7", "min_size = 1000000000000"), "type size 1000000000000pt is out of range"),  # not 1e+12
        (('radius = "3mm"', 'radius = "3mm"\ncontent = "x"'), "a rect element has no 'content'"),
    ],
)
def test_every_bad_key_is_one_message_naming_file_table_and_key(tmp_path: Path, edit, message: str) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert edit[0] in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(InvalidData) as caught:
        load_layout_file(path)
    assert len(caught.value.problems) == 1
    assert str(path) in str(caught.value) and message in caught.value.problems[0], caught.value.problems


def test_unreadable_layout_files_are_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[layouts\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=r"broken\.toml: not valid TOML"):
        load_layout_file(path)
    with pytest.raises(UnreadableInput, match="cannot read"):
        load_layout_file(tmp_path / "absent.toml")
    bad_font = tmp_path / "font.ttf"
    bad_font.write_bytes(b"not a font")
    (tmp_path / "f.toml").write_text('[fonts]\nx = "font.ttf"\n[layouts]\n', encoding="utf-8")
    with pytest.raises(InvalidData, match=r"table \[fonts\], key 'x': .*not a TrueType/OpenType font"):
        load_layout_file(tmp_path / "f.toml")
