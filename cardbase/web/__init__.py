"""The web face: an ASGI app (FastAPI) over the same feature packages as the CLI.

``app.create_app`` builds it; ``api`` holds the JSON routes, ``pages`` the HTML pages (Jinja2
templates in ``templates/``, assets in ``static/``), ``security`` the Host, Origin and token checks.
Like ``cardbase/cli/``, it is thin: no SQL and no rules here.
"""
