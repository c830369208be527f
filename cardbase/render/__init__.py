"""Printing: card faces described once as data and drawn by two backends, and print-ready sheets.

- ``layout``: each card kind's face (and back) as data — boxes in mm, fonts, colours, fitting rules.
- ``values``: a catalog card's face values (unknown → "?", the demo mark).
- ``face``: a layout filled and fitted for one card, as drawing ops; ``cache``: the face cache.
- ``raster``: the Pillow backend (PNG at any DPI); ``pdf``: the ReportLab backend (vector PDF).
- ``sheet``: paper, card size, bleed, gap, marks and duplex backs, and the imposition.
- ``art``: finding and checking card art; ``registration``: the printer alignment test.
- ``printing``: (card, copies) entries → a PDF, and one card → a PNG.

Nothing here is imported by ``cardbase --help``: the CLI imports it inside its commands.
"""
