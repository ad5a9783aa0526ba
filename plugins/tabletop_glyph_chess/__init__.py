"""Glyph Chess for tabletop: a hex board, wizards, spells paid in coins and shared dice."""
