"""The two-colour deck's clubs and spades tell apart at the size Discord shows an emoji
(about 22 pixels in a message, 16 in a menu): both are black, so the shapes alone must do
it (a club: a round top and notches at its sides; a spade: a sharp point, one body)."""

from __future__ import annotations

import pytest
from PIL import Image

from bot import faces
from bot.engine import Card

# The least share of the suit's ink that differs between a club and a spade of the same
# rank, shrunk to emoji size. The faces before this were 0.15 apart (8♣ 3♣ A♣ read as
# spades in a build menu); these are 0.20.
LEAST_DIFFERENCE = 0.18


def suit_ink(card: Card, size: int) -> list[float]:
    """How dark each pixel of the face's lower half (its suit) is, shrunk to ``size``."""
    face = faces.draw_face(card).resize((size, size), Image.Resampling.LANCZOS)
    grey, alpha = face.convert("L").load(), face.getchannel("A").load()
    return [
        (1 - grey[x, y] / 255) * alpha[x, y] / 255
        for y in range(size // 2, size)
        for x in range(size)
    ]


@pytest.mark.parametrize("size", [16, 22])
@pytest.mark.parametrize("rank", ["A", "3", "8", "10", "K"])
def test_clubs_and_spades_differ_at_emoji_size(rank: str, size: int) -> None:
    club, spade = suit_ink(Card.parse(rank + "C"), size), suit_ink(Card.parse(rank + "S"), size)
    differ = sum(abs(c - s) for c, s in zip(club, spade, strict=True))
    ink = sum(max(c, s) for c, s in zip(club, spade, strict=True))
    assert differ / ink >= LEAST_DIFFERENCE, (rank, size, round(differ / ink, 3))


def test_the_suit_keeps_clear_of_the_rank() -> None:
    """A row of plain paper between the rank and the suit, the spade's point included."""
    for card in (Card.parse("10S"), Card.parse("10C"), Card.parse("8S")):
        face = faces.draw_face(card).convert("L")
        rows = [
            min(face.getpixel((x, y)) for x in range(20, faces.SIZE - 20)) for y in range(55, 75)
        ]
        assert max(rows) > 240, (card, rows)
