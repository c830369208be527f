"""The command line: thin Typer apps, one module per command group."""
