"""The 52 card faces the bot draws itself (Pillow) and uploads as application emojis.

A face is a white rounded card on a transparent 128×128 square (Discord's emoji size),
the rank big at the top and the suit below it, in red or black ink. It is drawn for
Discord's inline size (22 px): few, heavy shapes; the white card and its grey rim read on
the dark and the light theme alike. Suits are drawn as shapes and the rank with Pillow's
built-in font, so no font file is needed and the same Pillow draws the same bytes on
every machine (the emoji names carry a digest of them, see :func:`emoji_name`).
"""

from __future__ import annotations

import functools
import hashlib
import io

from PIL import Image, ImageDraw, ImageFont

from bot.engine import Card
from bot.engine.cards import SUITS

SIZE = 128  # Discord's emoji size
SCALE = 4  # drawn this many times larger, then scaled down: smooth edges
RED = (200, 24, 32, 255)
BLACK = (17, 17, 20, 255)
PAPER = (255, 255, 255, 255)
RIM = (150, 152, 160, 255)
NAME_PREFIX = "kc_"
DIGEST_CHARS = 6


def deck() -> list[Card]:
    """The 52 different cards (Mulle's second deck shows the same faces)."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's own font (no font file on the host needed), at the size asked for
    return ImageFont.load_default(size=size)


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple) -> None:
    """A heart of half-width ``r`` centred at (cx, cy)."""
    lobe = r * 0.52
    for side in (-1, 1):
        x = cx + side * r * 0.48
        draw.ellipse((x - lobe, cy - r * 0.55 - lobe, x + lobe, cy - r * 0.55 + lobe), fill=ink)
    draw.polygon(
        [(cx - r * 0.98, cy - r * 0.42), (cx + r * 0.98, cy - r * 0.42), (cx, cy + r * 0.95)],
        fill=ink,
    )


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple) -> None:
    """A spade: an upside-down heart on a stem."""
    lobe = r * 0.5
    for side in (-1, 1):
        x = cx + side * r * 0.47
        draw.ellipse((x - lobe, cy + r * 0.2 - lobe, x + lobe, cy + r * 0.2 + lobe), fill=ink)
    draw.polygon(
        [(cx - r * 0.96, cy + r * 0.08), (cx + r * 0.96, cy + r * 0.08), (cx, cy - r * 0.95)],
        fill=ink,
    )
    _stem(draw, cx, cy, r, ink)


def _club(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple) -> None:
    """A club: three round leaves on a stem."""
    leaf = r * 0.42
    leaves = ((cx, cy - r * 0.5), (cx - r * 0.52, cy + r * 0.18), (cx + r * 0.52, cy + r * 0.18))
    for x, y in leaves:
        draw.ellipse((x - leaf, y - leaf, x + leaf, y + leaf), fill=ink)
    draw.rectangle((cx - r * 0.2, cy - r * 0.3, cx + r * 0.2, cy + r * 0.3), fill=ink)
    _stem(draw, cx, cy, r, ink)


def _stem(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple) -> None:
    draw.polygon(
        [(cx - r * 0.12, cy + r * 0.2), (cx + r * 0.12, cy + r * 0.2),
         (cx + r * 0.42, cy + r), (cx - r * 0.42, cy + r)],
        fill=ink,
    )  # fmt: skip


def _diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: tuple) -> None:
    draw.polygon([(cx, cy - r), (cx + r * 0.78, cy), (cx, cy + r), (cx - r * 0.78, cy)], fill=ink)


SUIT_SHAPES = {"H": _heart, "S": _spade, "C": _club, "D": _diamond}


def draw_face(card: Card) -> Image.Image:
    """The face of ``card`` as a 128×128 RGBA image."""
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ink = RED if card.is_red else BLACK
    # a card a little narrower than the square, so the rank "10" still fits in big type
    left, top, right, bottom = 8 * SCALE, 1 * SCALE, big - 8 * SCALE, big - 1 * SCALE
    draw.rounded_rectangle(
        (left, top, right, bottom), radius=16 * SCALE, fill=PAPER, outline=RIM, width=3 * SCALE
    )
    rank = _rank(card.rank_name, ink, height=58 * SCALE, width=right - left - 16 * SCALE)
    image.alpha_composite(rank, (int((left + right - rank.width) / 2), top + 8 * SCALE))
    SUIT_SHAPES[card.suit](draw, (left + right) / 2, bottom - 28 * SCALE, 22 * SCALE, ink)
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def _rank(text: str, ink: tuple, *, height: int, width: int) -> Image.Image:
    """The rank as tall as ``height``, squeezed to at most ``width`` (so "10" is as tall as
    "7"); a stroke in the same ink makes the thin built-in font bold enough for 22 px."""
    font = _font(height * 3 // 2)
    stroke = height // 12
    box = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox(
        (0, 0), text, font=font, stroke_width=stroke
    )
    layer = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((-box[0], -box[1]), text, font=font, fill=ink,
                               stroke_width=stroke, stroke_fill=ink)  # fmt: skip
    scale = height / layer.height
    size = (min(width, round(layer.width * scale)), height)
    return layer.resize(size, Image.Resampling.LANCZOS)


@functools.cache
def face_png(card: Card) -> bytes:
    """The face of ``card`` as PNG bytes (drawn once per process)."""
    out = io.BytesIO()
    draw_face(card).save(out, format="PNG", optimize=True)
    return out.getvalue()


def emoji_name(card: Card) -> str:
    """The face's emoji name: ``kc_AS_1f2e3d``, the card and a digest of its picture, so a
    changed drawing gets a new name and is uploaded again (2–32 of ``[A-Za-z0-9_]``)."""
    digest = hashlib.sha256(face_png(card)).hexdigest()[:DIGEST_CHARS]
    return f"{NAME_PREFIX}{card.rank_name}{card.suit}_{digest}"
