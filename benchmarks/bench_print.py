"""Printing benchmark: 500 unique generated Méa cards → a print-ready PDF, cold and warm cache.

Ours: ``cardbase.render.printing.print_cards`` with 3 mm bleed, crop marks and duplex backs, no
art supplied (placeholders), first with an empty face cache (cold), then again (warm).
Peer, measured in the same run: a plain ReportLab script drawing 500 pre-rendered 750×1050
JPEG card images 9 to an A4 page (the images are made first, untimed, from our own faces with
an illustration-like texture in the art box, so they compress like real card scans).

Targets (issue 4): cold time ≤ 0.3× the peer's; file size ≤ 0.3× the peer's.
Both sides run in this process with their libraries already imported. Ours runs with the CLI's
default options (``SheetOptions``: 4 mm printer margin, crop marks kept 3 mm inside it).

Export (issue 15): ``cardbase.render.export.export_images`` writing the 500 cards as PNGs at
300 dpi with 3 mm bleed and their back, cold cache; the peer is Pillow saving the same faces
(rendered beforehand, untimed, by our own raster backend) one by one as PNG files.

ReportLab's C accelerator (``rl-accel``, a dependency: its ``_rl_accel`` formats the numbers of
every PDF operator) is used when installed; ``--accel off`` hides it, so ReportLab formats them
in Python, and ``--accel both`` runs the PDF measure with it and without, alternating processes
(``--runs`` of each), and compares the medians.

Run: uv run python benchmarks/bench_print.py [--cards 500] [--runs 3] [--only pdf|export] [--accel on|off|both]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import table

WORDS = [
    "Goblin",
    "Dragon",
    "Toad",
    "Knight",
    "Imp",
    "Golem",
    "Owl",
    "Bear",
    "Crab",
    "Moth",
    "Snail",
    "Yak",
    "Crème",
    "Naïve",
    "Lantern",
    "Turnip",
    "Ferret",
    "Newt",
    "Sprite",
    "Bat",
]
TEXTS = [
    "When summoned: Draw 1 card.",
    "When killed: Add 1 tile for you. At the start of your turn: this monster gets +1 attack.",
    "Kill 1 enemy monster with defence 2 or less on a tile adjacent to this monster.",
    "",
    "At the end of your turn: flip 1 enemy tile with a monster of yours on it, then draw 1 card.",
]
DESCRIPTIONS = [
    "Sworn to defend any puddle deeper than his boots.",
    "Wobbles menacingly. Tastes surprisingly good with a spoon.",
    "Flies in spirals, lands in soup and leaves a helpful note behind.",
    "",
]


def generated_cards(n: int, seed: int = 4) -> list:
    """``n`` unique Méa cards (not in any database; source "generated")."""
    from cardbase.db.models import Card, card_id, short_id

    rng = random.Random(seed)
    cards = []
    for i in range(n):
        name = f"{WORDS[i % len(WORDS)]} {WORDS[(i // len(WORDS)) % len(WORDS)]} {i}"
        kind = "assist" if i % 4 == 0 else "monster"
        cid = card_id("mea", "bench", name)
        cards.append(
            Card(
                id=cid,
                short_id=short_id(cid),
                game="mea",
                set_code="bench",
                name=name,
                search_names="",
                type=kind,
                source="generated",
                cost=rng.randint(0, 8),
                attack=rng.randint(0, 9) if kind == "monster" else None,
                defence=rng.randint(1, 9) if kind == "monster" else None,
                text=TEXTS[i % len(TEXTS)] or None,
                description=DESCRIPTIONS[i % len(DESCRIPTIONS)] or None,
            )
        )
    return cards


def peer_images(cards: list, folder: Path) -> list[Path]:
    """750×1050 JPEGs of the cards (untimed set-up for the peer)."""
    from PIL import Image

    from cardbase.render.face import compose
    from cardbase.render.layout import layout_name
    from cardbase.render.raster import render_face
    from cardbase.render.values import face_values

    rng = random.Random(7)
    texture = Image.effect_noise((240, 240), 40).convert("RGB")
    paths = []
    for i, card in enumerate(cards):
        face = compose(layout_name("mea", card.type, card.name), face_values(card), (63, 88))
        img = render_face(face, dpi=302.4, supersample=1).resize((750, 1050))
        # an "illustration": a tinted noise texture in the art box
        left, top = rng.randint(0, 150), rng.randint(0, 170)
        art = texture.crop((left, top, left + 86, top + 59)).resize((630, 430), Image.Resampling.BICUBIC)
        tint = Image.new("RGB", art.size, tuple(rng.randint(60, 220) for _ in range(3)))
        img.paste(Image.blend(art, tint, 0.6), (60, 162))
        path = folder / f"card-{i:04d}.jpg"
        img.save(path, format="JPEG", quality=75)
        paths.append(path)
    return paths


def run_peer(images: list[Path], out: Path) -> float:
    """A plain ReportLab script: each JPEG drawn at 63×88 mm, 9 to an A4 page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    start = time.perf_counter()
    c = Canvas(str(out), pagesize=A4)
    x0, y0 = (210 - 189) / 2 * mm, (297 - 264) / 2 * mm
    for i, path in enumerate(images):
        slot = i % 9
        col, row = slot % 3, slot // 3
        c.drawImage(str(path), x0 + col * 63 * mm, A4[1] - y0 - (row + 1) * 88 * mm, 63 * mm, 88 * mm)
        if slot == 8:
            c.showPage()
    c.save()
    return time.perf_counter() - start


def run_ours(cards: list, out: Path, images: Path) -> tuple[float, object]:
    from cardbase.render.options import SheetOptions
    from cardbase.render.printing import print_cards

    spec = SheetOptions(paper="a4", bleed="3mm", backs=True).spec("mea")
    start = time.perf_counter()
    report = print_cards([(c, 1) for c in cards], out, spec, title="bench", images=images)
    return time.perf_counter() - start, report


def bench_export(cards: list, runs: int) -> None:
    """Ours: export_images at 300 dpi, 3 mm bleed, cold cache. Peer: Pillow saving the same faces one by one."""
    from cardbase.render.export import export_images
    from cardbase.render.face import compose
    from cardbase.render.layout import layout_name
    from cardbase.render.raster import render_face
    from cardbase.render.values import face_values

    with tempfile.TemporaryDirectory(prefix="cardbase-bench-export-") as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        faces = [
            render_face(compose(layout_name("mea", c.type, c.name), face_values(c), (63, 88)), 300, 3.0) for c in cards
        ]
        print(f"(set-up: {len(faces)} peer faces rendered in {time.perf_counter() - t:.1f} s, untimed)")
        peer_t, ours_t = [], []
        for run in range(runs):
            folder = root / f"peer-{run}"
            folder.mkdir()
            start = time.perf_counter()
            for i, img in enumerate(faces):
                img.save(folder / f"{i:03d}.png", format="PNG", dpi=(300, 300))
            peer_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            report = export_images(
                [(c, 1) for c in cards], root / f"ours-{run}", dpi=300, bleed=3.0, images=root / f"art-{run}"
            )
            ours_t.append(time.perf_counter() - start)
        peer_bytes = sum(p.stat().st_size for p in (root / "peer-0").iterdir())
        ours_bytes = sum(p.stat().st_size for p in (root / "ours-0").iterdir())
    peer, ours = statistics.median(peer_t), statistics.median(ours_t)
    table(
        f"export {len(cards)} unique Méa cards as PNG, 300 dpi, 3 mm bleed ({report.width_px}×{report.height_px} px; "
        f"medians of {runs})",
        [
            ("peer: Pillow saving the faces one by one", f"{peer:.2f} s, {peer_bytes / 1e6:.1f} MB", "1", ""),
            (
                "ours: export images, cold cache (compose, draw, save)",
                f"{ours:.2f} s, {ours_bytes / 1e6:.1f} MB",
                f"{ours / peer:.3f}×",
                "",
            ),
        ],
    )


def accel_both(cards: int, runs: int) -> None:
    """The PDF measure with ReportLab's accelerator and without, in alternating processes."""
    import json
    import subprocess

    figures: dict[str, list[dict[str, float]]] = {"on": [], "off": []}
    for _ in range(runs):
        for mode in figures:
            argv = [sys.executable, __file__, "--only", "pdf", "--runs", "1", "--cards", str(cards), "--accel", mode]
            done = subprocess.run([*argv, "--json"], capture_output=True, text=True, check=True)
            figures[mode].append(json.loads(done.stdout.strip().splitlines()[-1]))

    def median(mode: str, key: str) -> float:
        return statistics.median(f[key] for f in figures[mode])

    rows = []
    for mode, label in (("off", "without rl-accel (ReportLab in Python)"), ("on", "with rl-accel")):
        cold, warm, peer = median(mode, "cold"), median(mode, "warm"), median(mode, "peer")
        rows.append((f"ours, cold, {label}", f"{cold:.2f} s", f"{cold / peer:.3f}× peer ({peer:.2f} s)", ""))
        rows.append((f"ours, warm, {label}", f"{warm:.2f} s", f"{warm / peer:.3f}× peer", ""))
    for key in ("cold", "warm", "peer"):
        rows.append((f"{key}: with / without", f"{median('on', key) / median('off', key):.3f}×", "", ""))
    table(f"print {cards} cards with and without rl-accel (alternating processes, medians of {runs})", rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3, help="runs of each side; medians are reported")
    parser.add_argument("--only", choices=("pdf", "export"), default=None)
    parser.add_argument("--accel", choices=("on", "off", "both"), default="on", help="ReportLab's C accelerator")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one run's figures, for --accel both
    args = parser.parse_args()
    if args.accel == "both":
        accel_both(args.cards, args.runs)
        return
    if args.accel == "off":
        sys.modules["_rl_accel"] = None  # type: ignore[assignment]  # ReportLab then formats in Python
    if args.only != "pdf":
        bench_export(generated_cards(args.cards), args.runs)
    if args.only == "export":
        return

    # imports for both sides up front, so neither pays them inside its timing
    import reportlab.pdfgen.canvas  # noqa: F401

    import cardbase.render.printing  # noqa: F401

    cards = generated_cards(args.cards)
    with tempfile.TemporaryDirectory(prefix="cardbase-bench-") as tmp:
        root = Path(tmp)
        jpegs = root / "jpegs"
        jpegs.mkdir()
        t = time.perf_counter()
        images = peer_images(cards, jpegs)
        print(f"(set-up: {len(images)} peer JPEGs made in {time.perf_counter() - t:.1f} s, untimed)")
        peer_t, cold_t, warm_t = [], [], []
        for run in range(args.runs):
            peer_t.append(run_peer(images, root / "peer.pdf"))
            art = root / f"card_images-{run}"
            shutil.rmtree(art, ignore_errors=True)
            elapsed, report = run_ours(cards, root / "ours.pdf", art)
            cold_t.append(elapsed)
            warm_t.append(run_ours(cards, root / "ours-warm.pdf", art)[0])
        peer_size = (root / "peer.pdf").stat().st_size
        ours_size = (root / "ours.pdf").stat().st_size
        pages = report.pages  # type: ignore[attr-defined]
    peer, cold, warm = statistics.median(peer_t), statistics.median(cold_t), statistics.median(warm_t)
    if args.json:
        import json

        print(json.dumps({"peer": peer, "cold": cold, "warm": warm, "size": ours_size, "peer_size": peer_size}))
        return
    from reportlab.lib import rl_accel

    accelerated = getattr(rl_accel, "_c_funcs", None)
    print(f"ReportLab's accelerator: {'_rl_accel (rl-accel)' if accelerated else 'none (Python)'}")
    table(
        f"print {args.cards} unique Méa cards (ours: A4, 3 mm bleed, crop marks, backs, {pages} pages; "
        f"medians of {args.runs})",
        [
            ("peer: ReportLab, 500 JPEGs 9/page", f"{peer:.2f} s, {peer_size / 1e6:.1f} MB", "1", ""),
            ("ours, cold cache", f"{cold:.2f} s", f"{cold / peer:.3f}×", "≤ 0.3×"),
            ("ours, warm cache", f"{warm:.2f} s", f"{warm / peer:.3f}×", "(faster than cold)"),
            ("ours, file size (no art)", f"{ours_size / 1e6:.2f} MB", f"{ours_size / peer_size:.3f}×", "≤ 0.3×"),
        ],
    )


if __name__ == "__main__":
    main()
