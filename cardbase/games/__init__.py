"""The rules of the three games: pure, no database, files, printing or CLI."""
