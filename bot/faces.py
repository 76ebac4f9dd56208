"""The card faces the bot draws itself (Pillow) and uploads as application emojis: 52 in
the usual two colours, and 52 more in a four-colour deck (♠ black, ♥ red, ♦ blue,
♣ green, as online card rooms have them).

A face is a white rounded card on a transparent 128×128 square (Discord's emoji size),
the rank big at the top and the suit below it, in the suit's ink. It is drawn for
Discord's inline size (22 px, where one pixel of it is almost six of the picture): few,
heavy shapes; the white card and its grey rim read on the dark and the light theme alike.
Ranks and suits are both drawn here as shapes (thick strokes, circles and polygons), not
with a font: the rank glyphs are made for that size (a 6 with a closed loop and a curved
top, a 5 with a flat top and an open bowl, a 9 that is a 6 turned round, an 8 of two
loops), no font file is needed, and the same Pillow draws the same bytes on every
machine (the emoji names carry a short digest of them, see :func:`emoji_name`).
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import re
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.engine import Card
from bot.engine.cards import SUITS

SIZE = 128  # Discord's emoji size
SCALE = 4  # drawn this many times larger, then scaled down: smooth edges
RED = (204, 16, 28, 255)
BLACK = (17, 17, 20, 255)
BLUE = (18, 72, 214, 255)
GREEN = (12, 128, 44, 255)
PAPER = (255, 255, 255, 255)
RIM = (150, 152, 160, 255)
DIGEST_CHARS = 4  # of a face's emoji name: a short mark after the card's words

# The two decks: the ink of each suit and the mark their emoji names carry.
TWO_COLOUR = "two"
FOUR_COLOUR = "four"
STYLES: tuple[str, ...] = (TWO_COLOUR, FOUR_COLOUR)
DEFAULT_STYLE = TWO_COLOUR
INKS: dict[str, dict[str, tuple[int, int, int, int]]] = {
    TWO_COLOUR: {"S": BLACK, "H": RED, "D": RED, "C": BLACK},
    FOUR_COLOUR: {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN},
}
# An emoji's name is what a notification, a screen reader and the emoji's tooltip show:
# the card in words (``queen_of_hearts``), the four-colour deck marked ``4c``.
DECK_MARKS: dict[str, str] = {TWO_COLOUR: "", FOUR_COLOUR: "_4c"}
RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# A face's name: the card, the deck, a digest of the picture (2–32 of [A-Za-z0-9_]).
FACE_NAME = re.compile(
    r"(?P<rank>ace|[2-9]|10|jack|queen|king)_of_(?P<suit>spades|hearts|diamonds|clubs)"
    rf"(?P<four>_4c)?_[0-9a-f]{{{DIGEST_CHARS}}}"
)
# The names of the faces before the cards were named in words (``kc_QH_1f2e3d``, four
# colours ``k4_…``): still the bot's, shown until their successors are uploaded, then
# deleted (a deploy migrates by itself).
OLD_FACE_NAME = re.compile(r"(?P<deck>kc|k4)_(?P<rank>10|[2-9AJQK])(?P<suit>[SHDC])_[0-9a-f]{6}")

Point = tuple[float, float]
Ink = tuple[int, int, int, int]


def deck() -> list[Card]:
    """The 52 different cards (Mulle's second deck shows the same faces)."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


# ------------------------------------------------------------------ rank glyphs
# Each glyph is strokes in a unit box (x and y from 0 to 1, y down), drawn with a round pen
# whose width is a fixed share of the box's height, so the strokes' outer edges fit in it.


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float) -> list[Point]:
    """Points on an ellipse from angle ``start`` to ``end`` (degrees, clockwise on the
    screen: 0 is right, 90 down)."""
    steps = max(4, int(abs(end - start) / 6))
    return [
        (
            cx + rx * math.cos(math.radians(start + (end - start) * i / steps)),
            cy + ry * math.sin(math.radians(start + (end - start) * i / steps)),
        )
        for i in range(steps + 1)
    ]


def _glyphs() -> dict[str, tuple[float, list[list[Point]]]]:
    """Each rank's width (as a share of its height) and strokes."""
    loop = _arc(0.5, 0.69, 0.5, 0.31, 0, 360)  # 6's closed bottom loop
    six = [loop, [(0.0, 0.69), *_arc(0.62, 0.62, 0.62, 0.62, 180, 268)]]
    return {
        "A": (0.9, [[(0.0, 1.0), (0.5, 0.0), (1.0, 1.0)], [(0.2, 0.66), (0.8, 0.66)]]),
        "2": (0.78, [[*_arc(0.5, 0.3, 0.5, 0.3, 190, 370), (0.0, 1.0), (1.0, 1.0)]]),
        "3": (
            0.78,
            [_arc(0.45, 0.25, 0.5, 0.25, 200, 450), _arc(0.45, 0.73, 0.55, 0.27, 270, 520)],
        ),
        "4": (0.86, [[(0.78, 1.0), (0.78, 0.0), (0.0, 0.7), (1.0, 0.7)]]),
        "5": (
            0.78,
            [[(1.0, 0.0), (0.08, 0.0), (0.03, 0.46)], _arc(0.42, 0.67, 0.58, 0.33, 225, 505)],
        ),
        "6": (0.8, six),
        "7": (0.78, [[(0.0, 0.0), (1.0, 0.0), (0.3, 1.0)]]),
        "8": (0.78, [_arc(0.5, 0.24, 0.42, 0.24, 0, 360), _arc(0.5, 0.71, 0.5, 0.29, 0, 360)]),
        "9": (0.8, [[(1 - x, 1 - y) for x, y in stroke] for stroke in six]),
        "10": (
            1.25,
            [[(0.0, 0.16), (0.18, 0.0), (0.18, 1.0)], _arc(0.82, 0.5, 0.43, 0.5, 0, 360)],
        ),
        "J": (0.7, [[(1.0, 0.0), *_arc(0.5, 0.68, 0.5, 0.32, 0, 160)]]),
        "Q": (0.92, [_arc(0.5, 0.46, 0.5, 0.46, 0, 360), [(0.55, 0.7), (1.0, 1.0)]]),
        "K": (
            0.82,
            [[(0.0, 0.0), (0.0, 1.0)], [(1.0, 0.0), (0.05, 0.62)], [(0.35, 0.4), (1.0, 1.0)]],
        ),
    }


GLYPHS = _glyphs()
PEN = 0.23  # the rank's stroke width, as a share of its height


def _draw_rank(draw: ImageDraw.ImageDraw, text: str, cx: float, top: float, height: float,
               ink: Ink) -> None:  # fmt: skip
    """The rank ``height`` tall (pen included), centred on ``cx``."""
    aspect, strokes = GLYPHS[text]
    pen = height * PEN
    inner = height - pen  # the strokes' centre lines fill this box
    width = inner * aspect
    left, top = cx - width / 2, top + pen / 2
    for stroke in strokes:
        points = [(left + x * width, top + y * inner) for x, y in stroke]
        draw.line(points, fill=ink, width=round(pen), joint="curve")
        for x, y in (points[0], points[-1]):  # round ends
            draw.ellipse((x - pen / 2, y - pen / 2, x + pen / 2, y + pen / 2), fill=ink)


# ------------------------------------------------------------------ suit shapes


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Ink) -> None:
    """A heart of half-width ``r`` centred at (cx, cy): two round lobes with a notch between
    them and a point at the bottom."""
    lobe = r * 0.54
    for side in (-1, 1):
        x = cx + side * r * 0.46
        draw.ellipse((x - lobe, cy - r * 0.4 - lobe, x + lobe, cy - r * 0.4 + lobe), fill=ink)
    draw.polygon(
        [(cx - r * 0.99, cy - r * 0.28), (cx, cy - r * 0.2), (cx + r * 0.99, cy - r * 0.28),
         (cx, cy + r)],
        fill=ink,
    )  # fmt: skip


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Ink) -> None:
    """A spade: a tall sharp point on top, one solid body with wide round shoulders, on a
    thin stem. At emoji size (about 20 pixels) what tells it from a club is that point and
    the body's one piece: no notches."""
    lobe = r * 0.5
    for side in (-1, 1):
        x = cx + side * r * 0.45
        draw.ellipse((x - lobe, cy + r * 0.2 - lobe, x + lobe, cy + r * 0.2 + lobe), fill=ink)
    draw.polygon(
        [(cx, cy - r * 1.12), (cx + r * 0.88, cy + r * 0.12), (cx, cy + r * 0.5),
         (cx - r * 0.88, cy + r * 0.12)],
        fill=ink,
    )  # fmt: skip
    _stem(draw, cx, cy, r, ink, width=0.26)


def _club(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Ink) -> None:
    """A club: three big round leaves with deep notches between them, on a wide stem. At
    emoji size its round top and the notches at its sides tell it from a spade."""
    leaf = r * 0.47
    leaves = ((cx, cy - r * 0.58), (cx - r * 0.62, cy + r * 0.2), (cx + r * 0.62, cy + r * 0.2))
    for x, y in leaves:
        draw.ellipse((x - leaf, y - leaf, x + leaf, y + leaf), fill=ink)
    core = r * 0.16
    draw.ellipse((cx - core, cy - core, cx + core, cy + core), fill=ink)
    _stem(draw, cx, cy, r, ink, width=0.46)


def _stem(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Ink, *, width: float
) -> None:
    """A stem from the centre down to the bottom, ``width`` (of ``r``) wide at its foot."""
    draw.polygon(
        [
            (cx - r * 0.09, cy),
            (cx + r * 0.09, cy),
            (cx + r * width, cy + r),
            (cx - r * width, cy + r),
        ],
        fill=ink,
    )


def _diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Ink) -> None:
    """A diamond: tall and narrow, with sharp points."""
    draw.polygon([(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)], fill=ink)


SUIT_SHAPES = {"H": _heart, "S": _spade, "C": _club, "D": _diamond}


def draw_face(card: Card, style: str = DEFAULT_STYLE) -> Image.Image:
    """The face of ``card`` in the deck ``style`` as a 128×128 RGBA image."""
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ink = INKS[style][card.suit]
    # a card a little narrower than the square, so the rank "10" still fits in big type
    left, top, right, bottom = 6 * SCALE, 1 * SCALE, big - 6 * SCALE, big - 1 * SCALE
    draw.rounded_rectangle(
        (left, top, right, bottom), radius=14 * SCALE, fill=PAPER, outline=RIM, width=3 * SCALE
    )
    middle = (left + right) / 2
    _draw_rank(draw, card.rank_name, middle, top + 6 * SCALE, 56 * SCALE, ink)
    SUIT_SHAPES[card.suit](draw, middle, bottom - 32 * SCALE, 27 * SCALE, ink)
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@functools.cache
def face_png(card: Card, style: str = DEFAULT_STYLE) -> bytes:
    """The face of ``card`` as PNG bytes (drawn once per process)."""
    out = io.BytesIO()
    draw_face(card, style).save(out, format="PNG", optimize=True)
    return out.getvalue()


def card_words(card: Card) -> str:
    """The card in words, as an emoji name has it: ``queen_of_hearts``, ``10_of_clubs``."""
    return f"{RANK_WORDS.get(card.rank, str(card.rank))}_of_{SUIT_WORDS[card.suit]}"


def emoji_name(card: Card, style: str = DEFAULT_STYLE) -> str:
    """The face's emoji name: ``queen_of_hearts_1f2e`` (four colours:
    ``queen_of_hearts_4c_…``), the card, its deck and a short digest of its picture, so a
    face drawn differently gets a new name and is uploaded again (at most 25 characters,
    of ``[a-z0-9_]``)."""
    digest = hashlib.sha256(face_png(card, style)).hexdigest()[:DIGEST_CHARS]
    return f"{card_words(card)}{DECK_MARKS[style]}_{digest}"


def face_of(name: str) -> tuple[str, Card] | None:
    """The deck style and card an emoji name shows, if it is one of the bot's faces of any
    drawing (current or older, and the names before :func:`card_words`); else ``None``.
    A face of an older drawing still shows its card rightly until it is replaced."""
    if found := FACE_NAME.fullmatch(name):
        style = FOUR_COLOUR if found["four"] else TWO_COLOUR
        rank = _WORD_RANKS.get(found["rank"]) or int(found["rank"])
        return style, Card(rank, _WORD_SUITS[found["suit"]])
    if found := OLD_FACE_NAME.fullmatch(name):
        style = FOUR_COLOUR if found["deck"] == "k4" else TWO_COLOUR
        return style, Card.parse(found["rank"] + found["suit"])
    return None


_WORD_RANKS = {word: rank for rank, word in RANK_WORDS.items()}
_WORD_SUITS = {word: suit for suit, word in SUIT_WORDS.items()}


def is_face_name(name: str) -> bool:
    """Whether an emoji name is one of the bot's faces (of any deck or drawing)."""
    return face_of(name) is not None


def strip(
    cards: Sequence[Card], style: str, size: int, background: tuple[int, int, int]
) -> Image.Image:
    """The faces of ``cards`` side by side at ``size`` px on ``background`` (to look at)."""
    gap = max(2, size // 8)
    image = Image.new("RGB", (len(cards) * (size + gap) + gap, size + 2 * gap), background)
    for index, card in enumerate(cards):
        face = draw_face(card, style).resize((size, size), Image.Resampling.LANCZOS)
        image.paste(face, (gap + index * (size + gap), gap), face)
    return image
