"""Name normalisation shared by the catalog, search and deck files.

One rule for every script: text is NFKD-decomposed and case-folded; accents (combining
marks) are dropped after Latin letters (``Crème`` → ``creme``, as always), and kept after
letters of other scripts, where they make different letters (Japanese ``ガ`` is not ``カ``,
Devanagari ``कि`` is not ``क``); the result is recomposed (NFC). ``slug`` then keeps the
letters, digits and their marks of every script and turns each run of anything else into
``-``, so a Latin name's slug is the same ``[a-z0-9-]`` text it always was.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from cardbase.errors import plural, quoted

SLUG_FILE_BYTES = 200
"""At most this many UTF-8 bytes of a slug are used in a file name (file systems allow 255)."""


def _is_latin_or_plain(char: str) -> bool:
    """True for a base character whose accents fold away: ASCII, Latin letters, non-letters."""
    if char.isascii() or not unicodedata.category(char).startswith("L"):
        return True
    return unicodedata.name(char, "").startswith("LATIN")


@lru_cache(maxsize=4096)  # the same names are folded again and again (each Méa game's card table)
def fold(text: str) -> str:
    """Case- and accent-insensitive form of ``text``: ``"Méa"`` → ``"mea"``, ``"ガ"`` stays ``"ガ"``."""
    if text.isascii():  # what the rule gives ASCII text, without a pass per character
        return " ".join(text.lower().split())
    return _fold_any(text)


def _fold_any(text: str) -> str:
    """``fold`` by the rule, character by character (any text; ``fold`` takes a short cut for ASCII)."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    kept: list[str] = []
    strip_marks = True  # marks after a Latin letter (or at the start) are accents: dropped
    for char in unicodedata.normalize("NFKD", decomposed):
        if unicodedata.category(char).startswith("M"):
            if strip_marks and unicodedata.combining(char):
                continue
        else:
            strip_marks = _is_latin_or_plain(char)
        kept.append(char)
    return unicodedata.normalize("NFC", " ".join("".join(kept).split()))


_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
"""A run of what an ASCII slug replaces with one ``-`` (folded ASCII has no capitals)."""


def slug(text: str) -> str:
    """URL- and id-safe form of a name: ``"Gotcha!"`` → ``"gotcha"``, ``"勇者"`` → ``"勇者"``.

    Letters and digits of any script stay, with the marks that belong to them; every run of
    other characters (spaces, punctuation, ``/``, ``.``, controls) becomes one ``-``.
    """
    folded = fold(text)
    if folded.isascii():  # what the rule gives ASCII text, without a pass per character
        return _NOT_ALNUM.sub("-", folded).strip("-")
    return _slug_of_folded(folded)


def _slug_of_folded(folded: str) -> str:
    """``slug`` of folded text by the rule, character by character (``slug`` takes a short cut for ASCII)."""
    out: list[str] = []
    keep_marks = False
    for char in folded:
        if char.isalnum() and char != "_":
            out.append(char)
            keep_marks = True
        elif keep_marks and unicodedata.category(char).startswith("M"):
            out.append(char)
        else:
            keep_marks = False
            if out and out[-1] != "-":
                out.append("-")
    return "".join(out).strip("-")


def file_slug(text: str) -> str:
    """The slug as a file name part: no path separator or dot, at most ``SLUG_FILE_BYTES`` bytes.

    A longer slug is cut at a character boundary and given 8 hex digits of its hash, so two long
    names still get two files. Short slugs (every Latin name up to 200 characters) are unchanged.
    """
    whole = slug(text)
    if len(whole.encode()) <= SLUG_FILE_BYTES:
        return whole
    digest = hashlib.blake2b(whole.encode(), digest_size=4).hexdigest()
    cut = whole.encode()[: SLUG_FILE_BYTES - 9].decode("utf-8", "ignore")
    return f"{cut}-{digest}"


SET_CODE_MAX = 60
_SET_CODE = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")
SET_CODE_PATTERN = r"[A-Za-z0-9][A-Za-z0-9-]{0,59}"
"""What a set code may be, as written in a deck line's ``(set)``: letters a-z, digits and ``-``."""


def set_code(text: str) -> str:
    """The set code ``text`` stands for (``" My Set "`` → ``"my-set"``), or ``ValueError`` saying why not.

    The one rule for every place a set code enters (catalog import, deck text and JSON): the
    deck text format reads exactly these back, and they are safe in ids and file names.
    """
    code = text.strip().lower().replace(" ", "-")
    if not _SET_CODE.fullmatch(code):
        raise ValueError(
            f"set code {quoted(text)} must be 1 to {SET_CODE_MAX} letters a-z, digits and '-', "
            "starting with a letter or digit"
        )
    return code


# Characters a card name may not hold: C0 and C1 controls, DEL (terminal escapes start with ESC),
# line and paragraph separators, and the bidirectional overrides that reorder what a terminal shows.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")
"""The format characters a name may hold: the zero-width non-joiner and joiner, which Persian, the
Indic scripts and emoji sequences spell with — between two characters, not both ASCII or Latin
(where they join nothing and are as invisible as the rest). Every other one (a zero-width space U+200B, a word
joiner U+2060, U+FEFF, a soft hyphen U+00AD) is invisible and makes a name that looks like another."""


def _plain(char: str) -> bool:
    """A character no joiner beside it changes: ASCII, a Latin letter (Latin letters never join)."""
    return char.isascii() or unicodedata.name(char, "").startswith("LATIN")


def _joins_nothing(name: str, index: int) -> bool:
    """Whether the joiner at ``index`` of ``name`` is invisible there and changes nothing: at the
    start or the end, or between characters no joiner changes (``A<U+200D>B`` shows as ``AB``)."""
    if index == 0 or index == len(name) - 1:
        return True
    return _plain(name[index - 1]) and _plain(name[index + 1])


def deck_name(text: str) -> str:
    """A deck name as kept: composed (NFC), each run of spaces one space, none at either end
    (``"Cafe\u0301 "`` → ``"Café"``), so that a name typed either way is stored one way."""
    return unicodedata.normalize("NFC", " ".join(text.split()))


def deck_name_key(text: str) -> str:
    """What two deck names that look alike share: the name in its compatibility form (NFKC: a
    full-width ``Ｄｅｃｋ`` is ``Deck``, a ligature ``ﬁ`` is ``fi``, accents composed or not), joiners
    dropped, spaces collapsed. Case stays: ``Deck`` and ``deck`` are told apart at a glance."""
    compatible = unicodedata.normalize("NFKC", deck_name(text))
    return " ".join("".join(c for c in compatible if c not in _JOINERS).split())


def deck_name_alike(names: Iterable[str], name: str) -> str | None:
    """The first of ``names`` that looks like ``name`` (:func:`deck_name_key`), or None."""
    key = deck_name_key(name)
    return next((held for held in names if deck_name_key(held) == key), None)


def name_problem(name: str, slugged: str | None = None) -> str | None:
    """Why ``name`` cannot be a card name (None when it can): a control character, no letter or
    digit (its id would be empty), or a ``#`` that starts it or follows a space (the deck text
    format reads the rest of the line as a comment). ``slugged``: ``slug(name)``, when the caller has it."""
    if not (name.isascii() and name.isprintable()):  # printable ASCII holds none of them
        for position, char in enumerate(name, start=1):
            category = unicodedata.category(char)
            if category in ("Cc", "Zl", "Zp") or char in _BIDI_CONTROLS:
                return f"holds the control character U+{ord(char):04X} at character {position}"
            if category == "Cf" and (char not in _JOINERS or _joins_nothing(name, position - 1)):
                return (
                    f"holds the invisible character U+{ord(char):04X} at character {position} "
                    "(it would look like a name without it)"
                )
    if not (slug(name) if slugged is None else slugged):
        return "needs at least one letter or digit"
    if " #" in name or name.startswith("#"):
        return "cannot start with '#' or hold ' #' (a deck list reads the rest of the line as a comment)"
    return None


TAG_MAX = 40
"""Characters in a tag (``removal``, ``combo piece``)."""
TAGS_MAX = 100
"""Tags on one card, or on one card's entries in one deck."""
_TAG_PUNCTUATION = frozenset(" -_'./&+!?()")


def tag_name(text: str) -> str:
    """A tag as stored: spaces collapsed, lower case; 1 to ``TAG_MAX`` letters or digits of any script,
    spaces and ``-_'./&+!?()``; anything else (``,`` ``;`` ``#`` ``:`` quotes, ``<``, control characters) is
    a ``ValueError`` saying why (tags are listed with ``,`` and ``;`` and searched as ``tag:NAME``).
    Read in the compatibility form (NFKC) first, as deck names are told apart (:func:`deck_name_key`):
    ``cafe`` + U+0301 is ``café``, full-width ``ｒｅｍｏｖａｌ`` is ``removal`` — one tag, however typed."""
    tag = " ".join(unicodedata.normalize("NFKC", str(text)).split()).lower()
    if not tag:
        raise ValueError("a tag needs a letter or digit")
    if len(tag) > TAG_MAX:
        raise ValueError(f"a tag has at most {TAG_MAX} characters, not {len(tag):,}")
    for char in tag:
        if not (char.isalnum() or char in _TAG_PUNCTUATION):
            raise ValueError(
                f"a tag holds letters, digits, spaces and -_'./&+!?() only, not {quoted(char)} (in {quoted(tag)})"
            )
    if not any(char.isalnum() for char in tag):
        raise ValueError(f"a tag needs a letter or digit, not {quoted(tag)}")
    return tag


def _item_tag(value: object) -> str:
    """One item of a tag list as a tag; a ``ValueError`` that refuses the item (``CardbaseError.value``)."""
    from cardbase.errors import UsageError

    if not str(value).strip():
        raise UsageError(f"a blank tag ({quoted(value)}): a tag needs a letter or digit").refusing(value)
    try:
        return tag_name(str(value))
    except ValueError as error:
        raise UsageError(str(error)).refusing(value) from None


def stored_tag(tag: str) -> str:
    """A tag as a database holds it, in the rule's form (:func:`tag_name`): a database from before the
    rule may hold one in another (full-width ``ｒｅｍｏｖａｌ``), which ``removal`` typed either way names.
    One the rule refuses is kept as it is."""
    try:
        return tag_name(tag)
    except ValueError:
        return tag


def tag_list(values: object) -> list[str]:
    """Tags given as a list or as text separated by ``,`` or ``;``: checked (``tag_name``), without
    repeats, in order; more than ``TAGS_MAX`` is a ``ValueError``."""
    if isinstance(values, str):  # an empty part ('a,,b', a last ',') is a separator too many, not a tag
        parts = (part for chunk in values.split(";") for part in chunk.split(","))
        items: list[object] = [part for part in parts if part.strip()]
    elif isinstance(values, list | tuple | set | frozenset):
        items = list(values)  # each item is a tag given: a blank one is refused (_item_tag), not dropped unseen
    else:
        raise ValueError(f"tags are a list or text separated by ',' or ';', not {type(values).__name__}")
    tags = list(dict.fromkeys(_item_tag(v) for v in items))
    if len(tags) > TAGS_MAX:
        raise ValueError(f"{len(tags):,} {plural(len(tags), 'tag')}; a card has at most {TAGS_MAX}")
    return tags
