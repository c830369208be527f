"""Decks: files (text, JSON, share codes), validation against formats, stats, and decks in the database."""
