"""The profile's picture: a player's rating over their last rated matches (Pillow).

Drawn for Discord at 1×: an embed shows a picture at most 400 pixels wide, so the picture
is exactly that wide and its text is 16 pixels or more (Discord's body text), in a
TrueType font that has every letter of the bot's languages: DejaVu Sans (Debian's
``fonts-dejavu-core``, which the Dockerfile installs), else Pillow's own scalable font
(``ImageFont.load_default(size=…)``, Pillow ≥ 10.1, which lacks å ä ö). It is a light
card with dark ink and rounded corners: the same contrast on Discord's dark theme
(#313338) and its light one (#ffffff), where a transparent picture's ink would be too
faint on one of them. The numbers are the shown scale (:func:`bot.records.ratings.points`),
the band is the rating ± one sigma on that scale (where it probably lies).
"""

from __future__ import annotations

import functools
import io
import logging
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import EN, Lang
from bot.records import ratings

log = logging.getLogger(__name__)

CHART_FILE = "rating.png"
CHART_SIZE = (400, 240)
TEXT_PX = 16  # Discord's body text at 1×: no text in the picture is smaller
TITLE_PX = 18

CARD = (246, 247, 248, 255)  # a light card: dark ink reads the same on both themes
EDGE = (196, 201, 206, 255)
INK = (46, 51, 56, 255)  # near-black: axis numbers and labels
GRID = (210, 214, 218, 255)
LINE = (30, 110, 50, 255)  # a dark green line, readable on the light card
BAND = (56, 142, 60, 70)

History = Sequence[tuple[float, float, float, float]]


def rating_chart(history: History, first: int = 1, t: Lang = EN) -> bytes:
    """A PNG (:data:`CHART_SIZE`) of the shown rating after each of the last rated matches
    (``history``: ``(mu before, sigma before, mu after, sigma after)``, oldest first), the
    first of them the player's rated match number ``first``; the start of the line is the
    rating before it. The band: the rating ± one sigma on the shown scale."""
    width, height = CHART_SIZE
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image, "RGBA")
    draw.rounded_rectangle([0, 0, width - 1, height - 1], radius=10, fill=CARD, outline=EDGE)
    font = _font(TEXT_PX)
    title = t("Rating after each rated match")
    draw.text((12, 8), title, fill=INK, font=_title_font(draw, title, width - 24))
    if not history:
        return _png(image)
    states = [(history[0][0], history[0][1])] + [(mu, sigma) for _, _, mu, sigma in history]
    shown = [float(ratings.points(mu)) for mu, _ in states]
    spreads = [ratings.spread(sigma) for _, sigma in states]
    tops = [s + d for s, d in zip(shown, spreads, strict=True)]
    lows = [max(0.0, s - d) for s, d in zip(shown, spreads, strict=True)]
    low, high = _axis(min(lows), max(tops))
    left, right, top, bottom = 58, width - 14, 40, height - 46

    def x(i: int) -> float:
        return left + (right - left) * i / max(len(states) - 1, 1)

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    for value in _ticks(low, high):
        draw.line([(left, y(value)), (right, y(value))], fill=GRID, width=1)
        label = str(int(value))
        draw.text((left - 6, y(value)), label, fill=INK, font=font, anchor="rm")
    band = [(x(i), y(v)) for i, v in enumerate(tops)]
    band += [(x(i), y(v)) for i, v in reversed(list(enumerate(lows)))]
    # the band on a layer of its own, composited: drawn straight onto the card its
    # translucent fill would replace the card's opacity instead of blending with it
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).polygon(band, fill=BAND)
    image.alpha_composite(layer)
    draw.line([(x(i), y(v)) for i, v in enumerate(shown)], fill=LINE, width=3, joint="curve")
    for i, v in enumerate(shown):
        draw.ellipse([x(i) - 3, y(v) - 3, x(i) + 3, y(v) + 3], fill=LINE)
    # the x axis: the player's rated match numbers (0: before the first of them)
    for i in _match_ticks(len(states)):
        draw.text((x(i), bottom + 4), str(first - 1 + i), fill=INK, font=font, anchor="ma")
    draw.text(((left + right) / 2, height - 6), t("rated match"), fill=INK, font=font, anchor="md")
    return _png(image)


@functools.cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans at ``size`` pixels (Pillow finds it among the system's fonts), else
    Pillow's own scalable font, said once in the log."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        log.warning(
            "%s not found (apt-get install fonts-dejavu-core): å, ä, ö drawn as boxes", name
        )
        return ImageFont.load_default(size=size)


def _title_font(
    draw: ImageDraw.ImageDraw, text: str, room: float
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The largest bold size from :data:`TITLE_PX` down to :data:`TEXT_PX` at which the
    title fits ``room`` pixels (the catalogues keep it short enough at 16)."""
    for size in range(TITLE_PX, TEXT_PX, -1):
        if draw.textlength(text, font=_font(size, bold=True)) <= room:
            return _font(size, bold=True)
    return _font(TEXT_PX, bold=True)


def _axis(low: float, high: float) -> tuple[float, float]:
    """The y axis's range: round hundreds (or fifties) around the values."""
    step = 100.0 if high - low > 150 else 50.0
    bottom = step * (low // step)
    top = step * -(-high // step)
    if top - bottom < step:
        top = bottom + step
    return bottom, top


def _ticks(low: float, high: float) -> list[float]:
    """Three to six round numbers from ``low`` to ``high``."""
    span = high - low
    for step in (50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            break
    first = step * -(-low // step)
    ticks = []
    value = first
    while value <= high + 1e-9:
        ticks.append(value)
        value += step
    return ticks


def _match_ticks(count: int) -> list[int]:
    """Which points of ``count`` get their match number: at most about six, the last
    always."""
    every = max(1, -(-(count - 1) // 5))
    picked = list(range(0, count, every))
    if picked[-1] != count - 1:
        if count - 1 - picked[-1] < every / 2 and len(picked) > 1:
            picked.pop()
        picked.append(count - 1)
    return picked


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
