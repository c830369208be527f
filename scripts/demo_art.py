"""Draw the art of the 72 Méa demo cards from icons of the Game Icons set, once.

Source: the Game Icons set (https://game-icons.net), CC BY 3.0, by the authors named per card
below, as SVG paths in the npm package ``@iconify-json/game-icons`` (version 1.2.4). Each icon
is recoloured and set on a tinted field (a change, as the licence asks us to say); the result is
``card_images/mea/<card-slug>.png`` with ``card_images/mea/credits.csv`` naming the author and
licence of each, which the renderer prints in the card's footer.

The author of each icon is the folder that holds it in the set's own repository
(github.com/game-icons/icons, ``<author>/<icon>.svg``); where two authors have an icon of one
name, the one whose path the package holds is named.

Run it again only to change the art (the PNGs are committed)::

    cd "$(mktemp -d)" && npm pack @iconify-json/game-icons@1.2.4 && tar xzf iconify-json-game-icons-1.2.4.tgz
    uv run python scripts/demo_art.py "$OLDPWD"/package/icons.json   # from the repository's root

It draws with Debian's Chromium through Playwright (the browser tests' setup), so the SVG is
rasterised by a real SVG renderer.
"""

from __future__ import annotations

import colorsys
import csv
import hashlib
import html
import io
import json
import sys
from pathlib import Path

from cardbase.names import file_slug

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "card_images" / "mea"
# The Méa layouts' art box is 53 × 36 mm: 640 × 435 px is about 307 pixels per inch there.
WIDTH, HEIGHT = 640, 435
LICENCE = "CC BY 3.0"
AUTHORS = {
    "caro-asercion": "Caro Asercion",
    "cathelineau": "Cathelineau",
    "delapouite": "Delapouite",
    "irongamer": "Irongamer",
    "lorc": "Lorc",
    "skoll": "Skoll",
}
# card name: (icon, author folder)
ART: dict[str, tuple[str, str]] = {
    "Puddle Knight": ("black-knight-helm", "delapouite"),
    "Crumb Goblin": ("goblin-head", "delapouite"),
    "Naïve Squire": ("treasure-map", "lorc"),
    "Tile Mole": ("mole", "caro-asercion"),
    "Hopeful Newt": ("salamander", "lorc"),
    "Turnip Sentry": ("beet", "delapouite"),
    "Grumbling Hedgehog": ("hedgehog", "caro-asercion"),
    "Crème Golem": ("jelly", "delapouite"),
    "Lantern Sprite": ("lantern-flame", "lorc"),
    "Pickpocket Ferret": ("fox", "caro-asercion"),
    "Dizzy Bat": ("bat", "skoll"),
    "Doorstop Troll": ("troll", "skoll"),
    "Tiny Shovel Gnome": ("bad-gnome", "cathelineau"),
    "Overly Generous Gnome": ("present", "delapouite"),
    "Barrel Bandit": ("barrel", "delapouite"),
    "Château Toad": ("frog-prince", "delapouite"),
    "Moustached Ogrelet": ("mustache", "delapouite"),
    "Scroll-Hoarding Owl": ("barn-owl", "caro-asercion"),
    "Goose of Reckoning": ("goose", "delapouite"),
    "Fence-Hopping Sheep": ("sheep", "delapouite"),
    "Jalapeño Imp": ("chili-pepper", "delapouite"),
    "Drill Sergeant Badger": ("badger", "caro-asercion"),
    "Bard of Bad Tidings": ("lyre", "lorc"),
    "Grudge-Holding Goat": ("goat", "skoll"),
    "Bramble Bear": ("bear-head", "delapouite"),
    "Iron Pudding": ("anvil", "lorc"),
    "Tax Collector Toad": ("coins", "delapouite"),
    "Knight of the Soggy Table": ("mounted-knight", "skoll"),
    "Royal Cartographer": ("compass", "lorc"),
    "Pillow Fort Warden": ("pillow", "delapouite"),
    "Rowdy Minstrel": ("drum", "delapouite"),
    "Siege Snail": ("snail", "lorc"),
    "Mountain Yak": ("bison", "delapouite"),
    "Señor Tortuga": ("tortoise", "delapouite"),
    "Hungry Hydra": ("hydra", "lorc"),
    "Tidal Nanny": ("big-wave", "lorc"),
    "Goblin Surveyor": ("measure-tape", "delapouite"),
    "Berserk Beekeeper": ("beehive", "delapouite"),
    "Cathedral Crab": ("crab", "lorc"),
    "Earthquake Elephant": ("elephant", "delapouite"),
    "Mesmerist Moth": ("butterfly", "lorc"),
    "Grand Librarian Lich": ("spell-book", "delapouite"),
    "Warlord Wombat": ("pangolin", "caro-asercion"),
    "Colossal Cabbage Giant": ("cabbage", "delapouite"),
    "Dragon of Mild Inconvenience": ("dragon-head", "lorc"),
    "Land-Eating Leviathan": ("sea-serpent", "lorc"),
    "The Unreasonably Large Duck": ("duck", "delapouite"),
    "Tile Titan": ("rock-golem", "delapouite"),
    "Pocket Sand": ("sandstorm", "delapouite"),
    "Strong Coffee": ("coffee-cup", "delapouite"),
    "Pep Talk": ("megaphone", "delapouite"),
    "Extra Blanket": ("blanket", "delapouite"),
    "Fortune Cookie": ("cookie", "delapouite"),
    "Shortcut Through the Hedge": ("berry-bush", "delapouite"),
    "Sudden Sinkhole": ("hole", "delapouite"),
    "Library Card": ("bookshelf", "delapouite"),
    "Goblin Real Estate": ("house", "delapouite"),
    "Charity Parade": ("party-flags", "delapouite"),
    "Tripwire": ("tripwire", "lorc"),
    "Sugar Rush": ("cupcake", "delapouite"),
    "Bucket of Cold Water": ("full-wood-bucket", "delapouite"),
    "Bribe of Biscuits": ("gingerbread-man", "delapouite"),
    "Falling Piano": ("grand-piano", "caro-asercion"),
    "Battle Hymn": ("musical-score", "delapouite"),
    "Mortgage Papers": ("contract", "delapouite"),
    "Reinforced Pants": ("armored-pants", "irongamer"),
    "Surprise Trapdoor": ("hole-ladder", "delapouite"),
    "Scout's Honour": ("walking-scout", "delapouite"),
    "Anvil Drop": ("anvil-impact", "lorc"),
    "Very Long Nap": ("night-sleep", "delapouite"),
    "Grand Heist": ("money-stack", "delapouite"),
    "Dragon Sneeze": ("dragon-breath", "lorc"),
}


def credit(author: str) -> str:
    """The line a card's footer prints for its art (the README names the set and its address too)."""
    return f"art: {AUTHORS[author]}, {LICENCE}"


def _colour(hue: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(hue % 1.0, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def page(name: str, body: str, monster: bool) -> str:
    """An HTML page of the art: the icon on a field tinted by the card's own hue."""
    hue = int.from_bytes(hashlib.sha256(name.encode()).digest()[:2], "big") / 65536
    light, dark = _colour(hue, 0.86, 0.5), _colour(hue, 0.7, 0.45)
    ink = _colour(hue, 0.24 if monster else 0.28, 0.55)
    ring = _colour(hue, 0.78, 0.4)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(name)}</title><style>
html, body {{ margin: 0; width: {WIDTH}px; height: {HEIGHT}px; overflow: hidden; }}
body {{ background: radial-gradient(circle at 50% 45%, {light} 0%, {light} 38%, {dark} 100%); }}
.ring {{ position: absolute; left: {WIDTH / 2 - 190}px; top: {HEIGHT / 2 - 190}px; width: 380px; height: 380px;
  border-radius: 50%; border: 10px solid {ring}; box-sizing: border-box; }}
svg {{ position: absolute; left: {WIDTH / 2 - 160}px; top: {HEIGHT / 2 - 160}px; width: 320px; height: 320px;
  color: {ink}; filter: drop-shadow(6px 8px 0 rgba(0, 0, 0, 0.18)); }}
</style></head><body><div class="ring"></div>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">{body}</svg></body></html>"""


def main(icons_json: Path) -> int:
    from PIL import Image
    from playwright.sync_api import sync_playwright

    icons = json.loads(icons_json.read_text(encoding="utf-8"))["icons"]
    demo = json.loads((ROOT / "cardbase" / "catalog" / "data" / "mea_demo.json").read_text(encoding="utf-8"))
    types = {card["name"]: card["type"] for card in demo["cards"]}
    if set(types) != set(ART):
        print(f"the demo set and ART differ: {sorted(set(types) ^ set(ART))}", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
        tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1)
        for name, (icon, author) in ART.items():
            tab.set_content(page(name, icons[icon]["body"], types[name] == "monster"))
            shot = Image.open(io.BytesIO(tab.screenshot(type="png"))).convert("RGB")
            # A palette of 96 colours keeps the gradient smooth and the file small (about 45 KB).
            shot = shot.quantize(96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            target = OUT / f"{file_slug(name)}.png"
            shot.save(target, optimize=True)
            rows.append((target.name, credit(author), f"game-icons.net: {icon} ({author}/{icon}.svg)"))
        browser.close()
    with (OUT / "credits.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["file", "credit", "source"])
        writer.writerows(sorted(rows))
    print(f"wrote {len(rows)} images and credits.csv to {OUT}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(main(Path(sys.argv[1])))
