"""Layouts from a TOML file (``--layout my-layout.toml``): override any card kind's face or back.

The file names layouts by the names in ``cardbase.render.layout.LAYOUTS`` (``mea-monster``,
``meikyu-land``, ``meio-back``, …) and gives each one's background and elements: boxes in mm on
the card, fonts (built-in keys or TTF/OTF files declared under ``[fonts]``), colours, text sizes
and fitting, and which fields show (an element's ``content`` template names them). The format is
``LayoutFileModel``; its JSON Schema is ``schema/layout.schema.json``. Every bad key, unit or path
is one ``InvalidData`` message naming the file, the table and the key. An element ``kind = "mark"``
with ``name = "demo"`` or ``"assumed"`` places that label; a layout that does not place one gets it
at the top right (``cardbase.render.layout.with_marks``): no layout removes a mark. ::

    version = 1
    [fonts]
    title = "fonts/Title.ttf"            # relative to this file

    [layouts.mea-monster]
    background = "#203040"
    [[layouts.mea-monster.elements]]
    kind = "text"
    box = ["5mm", "4mm", "53mm", "9mm"]
    content = "{name}"
    font = "title"
    size = "11pt"
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from cardbase.errors import InvalidData, UnreadableInput, UsageError, number_text, quoted, schema_problem, shown
from cardbase.render import fonts
from cardbase.render import layout as layout_mod
from cardbase.render.layout import MARKS, Art, Box, Element, Ellipse, Layout, Mark, Para, Rect, Shape, Text
from cardbase.render.units import MM_PER_UNIT, NUMBER, parse_length
from cardbase.textfiles import decode_text, load_toml, path_problem, read_bytes

Length = str | float
MAX_FILE_BYTES = 1_000_000
_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})|\{[a-z_]+\}")
_FIELD = re.compile(r"\{([a-z_]+)\}")
_BARE_NUMBER = re.compile(rf"\s*+{NUMBER}\s*+")
# Face values a template may name (see cardbase.render.values.face_values).
FIELDS = frozenset(
    {
        *("id", "name", "game", "type", "set", "source", "demo", "assumed", "type_label", "footer"),
        *("cost", "attack", "defence", "level", "points", "developed_points", "bravery", "wits"),
        *("land_name", "text", "description", "rank", "rank_label", "suit", "suit_shape", "suit_colour"),
    }
)

COLOUR_FIELDS = frozenset({"suit_colour"})
"""The face values that are colours, which a colour may name (``fill = "{suit_colour}"``)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ElementModel(_Model):
    """One element drawn on the card, in order."""

    kind: Literal["rect", "ellipse", "text", "art", "shape", "mark"]
    box: tuple[Length, Length, Length, Length]
    when: str | None = None
    rotate: Literal[0, 180] = 0
    fill: str | None = None
    stroke: str | None = None
    width: Length | None = None
    radius: Length | None = None
    content: str | None = None
    font: str | None = None
    size: Length | None = None
    colour: str | None = None
    align: Literal["left", "centre", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    wrap: bool = False
    min_size: Length | None = None
    leading: float | None = None
    name: str | None = None
    keep_aspect: bool = True
    placeholder: str | None = None
    frame: str | None = None
    matte: str | None = None


class LayoutModel(_Model):
    """A card kind's face or back: its background (which fills the bleed) and its elements."""

    background: str
    reference: tuple[Length, Length] | None = None
    back: str | None = None
    elements: list[ElementModel]


class LayoutFileModel(_Model):
    """A ``--layout`` file."""

    version: Literal[1] = 1
    fonts: dict[str, str] = {}
    layouts: dict[str, LayoutModel]


def layout_schema() -> dict[str, Any]:
    """The JSON Schema of the layout file (``schema/layout.schema.json``)."""
    schema = LayoutFileModel.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "cardbase layout file (--layout)"
    return schema


_TYPE_TAGS = frozenset({"str", "float", "int", "bool", "none", "list", "dict", "tuple"})


def _where(loc: tuple[Any, ...]) -> tuple[str, str]:
    """(table, key) of a pydantic error location, as TOML names them: ``layouts.mea-monster.elements[3]``
    and ``size`` (or ``box[2]`` for the second number of a box); a key at the top level has no table
    (``""``), and the file as a whole neither table nor key."""
    parts = [p for p in loc if not (isinstance(p, str) and (p in _TYPE_TAGS or "[" in p))]
    names = [i for i, p in enumerate(parts) if isinstance(p, str)]
    if not names:
        return "", ""
    at = names[-1]
    key = str(parts[at]) + "".join(f"[{p + 1}]" for p in parts[at + 1 :])
    table = ""
    for part in parts[:at]:
        table += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if table else str(part))
    return table, key


class LayoutFileError(InvalidData):
    """A layout file that was read but is invalid: one line naming the file, the table and the key."""

    def __init__(self, source: str, problem: str):
        super().__init__(source, [problem], writes=False)
        Exception.__init__(self, f"{source}: {problem}")
        self.listed = None  # one line, not a list


class _Errors:
    """Makes the one error naming the file, the table and the key."""

    def __init__(self, source: Path):
        self.source = source

    def fail(self, table: str, key: str, message: str) -> LayoutFileError:
        if not key:  # the file as a whole
            return LayoutFileError(str(self.source), f"the file {message}")
        where = f"key {quoted(key)}" if not table else f"table [{table}], key {quoted(key)}"
        return LayoutFileError(str(self.source), f"{where}: {message}")


def _mm(value: Length, err: _Errors, table: str, key: str) -> float:
    try:
        return parse_length(value, key)
    except UsageError as error:
        raise err.fail(table, key, str(error).replace(f"bad {key} ", "bad length ")) from None


def _pt(value: Length, err: _Errors, table: str, key: str) -> float:
    """A type size: a bare number is points; "3mm" and the other units work too."""
    if isinstance(value, int | float) or (isinstance(value, str) and _BARE_NUMBER.fullmatch(value)):
        points = float(value)
    else:
        points = _mm(value, err, table, key) / MM_PER_UNIT["pt"]
    if not 1 <= points <= 200:
        raise err.fail(table, key, f"type size {number_text(points)}pt is out of range: use 1pt to 200pt")
    return points


def _colour(value: str | None, err: _Errors, table: str, key: str) -> str | None:
    if value is None:
        return None
    if not _COLOUR.fullmatch(value) or (value.startswith("{") and value[1:-1] not in COLOUR_FIELDS):
        raise err.fail(
            table,
            key,
            f"bad colour {quoted(value)}: write #rrggbb (or #rgb, or a field that is a colour: "
            f"{', '.join(f'{{{name}}}' for name in sorted(COLOUR_FIELDS))})",
        )
    if value.startswith("#") and len(value) == 4:
        return "#" + "".join(ch * 2 for ch in value[1:])
    return value.lower() if value.startswith("#") else value


def _template(value: str, err: _Errors, table: str, key: str) -> str:
    for name in _FIELD.findall(value):
        if name not in FIELDS:
            raise err.fail(table, key, f"unknown field {{{name}}}; fields are {', '.join(sorted(FIELDS))}")
    return value


def _font_key(path: Path, err: _Errors, key: str) -> str:
    if (problem := path_problem(path)) is not None:
        raise err.fail("fonts", key, problem)
    if not path.is_file():
        raise err.fail("fonts", key, f"font file {path} does not exist")
    try:
        data = read_bytes(path, "font file")
        from reportlab.pdfbase.ttfonts import TTFError, TTFont

        TTFont("probe", str(path))
    except OSError as error:
        raise err.fail("fonts", key, f"cannot read font file {path} ({error.strerror or error})") from None
    except (TTFError, ValueError, KeyError, IndexError) as error:
        raise err.fail("fonts", key, f"{path} is not a TrueType/OpenType font cardbase can embed ({error})") from None
    return fonts.register_file(path, hashlib.sha256(data).hexdigest()[:12])


def _element(el: ElementModel, font_keys: dict[str, str], err: _Errors, table: str) -> Element:
    from cardbase.render.shapes import ASPECT
    from cardbase.render.shapes import shape as shape_of

    box = Box(*(_mm(v, err, table, f"box[{i + 1}]") for i, v in enumerate(el.box)))
    if box.w <= 0 or box.h <= 0:
        raise err.fail(table, "box", "width and height must be more than 0 mm")
    if el.when is not None and el.when not in FIELDS:
        raise err.fail(table, "when", f"unknown field {quoted(el.when)}")
    fill = _colour(el.fill, err, table, "fill")
    stroke = _colour(el.stroke, err, table, "stroke")
    width = _mm(el.width, err, table, "width") if el.width is not None else 0.3
    common: dict[str, Any] = {"when": el.when, "rotate": el.rotate}
    allowed = {
        "rect": {"fill", "stroke", "width", "radius"},
        "ellipse": {"fill", "stroke", "width"},
        "shape": {"fill", "stroke", "width", "name", "keep_aspect"},
        "art": {"placeholder", "frame", "matte"},
        "text": {"content", "font", "size", "colour", "align", "valign", "wrap", "min_size", "leading"},
        "mark": {"name"},
    }[el.kind]
    for key in el.model_fields_set - allowed - {"kind", "box", "when", "rotate"}:
        raise err.fail(table, key, f"a {el.kind} element has no {quoted(key)}; it takes {', '.join(sorted(allowed))}")
    if el.kind == "mark":
        if el.name not in MARKS:
            raise err.fail(table, "name", f"a mark is one of {', '.join(MARKS)}, not {quoted(el.name)}")
        if el.when is not None:
            raise err.fail(table, "when", "a mark is drawn on every card that carries it; it takes no 'when'")
        return Mark(el.name, box, el.rotate)  # type: ignore[arg-type]
    if el.kind == "rect":
        radius = _mm(el.radius, err, table, "radius") if el.radius is not None else 0.0
        return Rect(box, fill, stroke, width, radius, **common)
    if el.kind == "ellipse":
        return Ellipse(box, fill, stroke, width, **common)
    if el.kind == "shape":
        if not el.name:
            raise err.fail(table, "name", "a shape needs a name")
        if "{" not in el.name:
            try:
                shape_of(el.name)
            except (KeyError, ValueError):
                raise err.fail(
                    table, "name", f"unknown shape {quoted(el.name)}; shapes are {', '.join(sorted(ASPECT))}"
                ) from None
        return Shape(_template(el.name, err, table, "name"), box, fill, stroke, width, el.keep_aspect, **common)
    if el.kind == "art":
        from cardbase.render.face import PLACEHOLDERS

        kind = el.placeholder or "card"
        if kind not in PLACEHOLDERS:
            raise err.fail(table, "placeholder", f"unknown placeholder {quoted(kind)}; use {', '.join(PLACEHOLDERS)}")
        frame = _colour(el.frame, err, table, "frame")
        return Art(box, frame, kind=kind, matte=_colour(el.matte, err, table, "matte") or "#ffffff", **common)
    if el.content is None:
        raise err.fail(table, "content", 'a text element needs content, e.g. "{name}"')
    font = el.font or "sans"
    if font not in font_keys and font not in fonts.FONT_FILES:
        known = ", ".join([*fonts.FONT_FILES, *font_keys])
        raise err.fail(table, "font", f"unknown font {quoted(font)}; use {known}, or declare it under [fonts]")
    size = _pt(el.size, err, table, "size") if el.size is not None else 8.0
    min_size = _pt(el.min_size, err, table, "min_size") if el.min_size is not None else None
    para = Para(
        _template(el.content, err, table, "content"),
        font_keys.get(font, font),
        size,
        _colour(el.colour, err, table, "colour") or "#1a1a1a",
    )
    leading = el.leading if el.leading is not None else 1.18
    if not 0.8 <= leading <= 3:
        raise err.fail(table, "leading", f"leading {number_text(leading)} is out of range: use 0.8 to 3")
    return Text(box, (para,), el.align, el.valign, el.wrap, min_size, leading, **common)


def load_layout_file(path: Path) -> dict[str, Layout]:
    """The layouts the file at ``path`` defines, checked; one clear error for the first problem."""
    err = _Errors(path)
    try:
        raw = read_bytes(path, "layout file", MAX_FILE_BYTES)
    except UnreadableInput as error:
        raise UnreadableInput(f"cannot read layout file {error}") from None
    text = decode_text(raw, shown(str(path)), "layout file")
    data = load_toml(text, str(path))
    named = data.get("layouts")
    for name in named if isinstance(named, dict) else ():
        if name not in layout_mod.LAYOUTS:
            raise err.fail("layouts", name, f"unknown layout; layouts are {', '.join(layout_mod.LAYOUTS)}")
    try:
        model = LayoutFileModel.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        table, key = _where(tuple(first["loc"]))
        raise err.fail(table, key, schema_problem(dict(first))) from None
    font_keys = {key: _font_key(path.parent / file, err, key) for key, file in model.fonts.items()}
    out: dict[str, Layout] = {}
    for name, lay in model.layouts.items():
        table = f"layouts.{name}"
        if name not in layout_mod.LAYOUTS:
            raise err.fail("layouts", name, f"unknown layout; layouts are {', '.join(layout_mod.LAYOUTS)}")
        base = layout_mod.LAYOUTS[name]
        if lay.back is not None and lay.back not in layout_mod.LAYOUTS:
            raise err.fail(table, "back", f"unknown layout {quoted(lay.back)}")
        reference = base.reference
        if lay.reference is not None:
            reference = (
                _mm(lay.reference[0], err, table, "reference[1]"),
                _mm(lay.reference[1], err, table, "reference[2]"),
            )
        elements = tuple(
            _element(el, font_keys, err, f"{table}.elements[{i + 1}]") for i, el in enumerate(lay.elements)
        )
        background = _colour(lay.background, err, table, "background")
        assert background is not None
        out[name] = Layout(
            name, f"{base.title} (from {path.name})", background, elements, lay.back or base.back, reference
        )
    return out


@contextmanager
def use_layouts(overrides: dict[str, Layout]) -> Iterator[None]:
    """Print with ``overrides`` in place of the built-in layouts of the same names, inside the block."""
    saved = {name: layout_mod.LAYOUTS[name] for name in overrides}
    layout_mod.LAYOUTS.update(overrides)
    layout_mod.fingerprint.cache_clear()
    layout_mod.fields_used.cache_clear()
    try:
        yield
    finally:
        layout_mod.LAYOUTS.update(saved)
        layout_mod.fingerprint.cache_clear()
        layout_mod.fields_used.cache_clear()
