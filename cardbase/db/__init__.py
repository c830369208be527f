"""The card database: SQLModel tables, opening and upgrading, search, import and export."""
