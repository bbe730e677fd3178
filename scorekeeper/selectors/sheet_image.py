"""A sheet (sheets.py) drawn as a PNG to send to a chat: its title and sentences, its tables and
the running totals chart, on white, in Pillow's own scalable font (bundled with Pillow, so no
font need be installed). `sheet_drawing` lays out what is drawn and where; `sheet_png` draws it:
what the picture says can be read back from the drawing, as no OCR is at hand."""

import io
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from .sheets import Sheet

MARGIN = 32
TITLE, TEXT, CELL = 34, 22, 22
ROW = 36
PADDING = 28  # between columns
CHART_SCALE = 2  # the page's chart is laid out in a 360-wide box; the picture draws it twice as big
INK, MUTED, RULE, LEADER, PAPER = "#1b1b1b", "#5d6470", "#d0d4da", "#fff3c4", "#ffffff"
# The page's series colours in its light scheme (app.css --chart-0 .. --chart-5).
SERIES = ("#00796b", "#c62828", "#1565c0", "#e65100", "#6a1b9a", "#4e6b00")


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: int
    fill: str = INK


@dataclass
class Drawing:
    """What the picture holds: texts, filled boxes and lines, on a width by height page."""

    width: int = 0
    height: int = 0
    texts: list[Text] = field(default_factory=list)
    boxes: list[tuple[tuple[float, float, float, float], str]] = field(default_factory=list)
    lines: list[tuple[list[tuple[float, float]], str, int]] = field(default_factory=list)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _width(text: str, size: int) -> float:
    return font(size).getlength(text)


def sheet_drawing(sheet: Sheet) -> Drawing:
    """Where each text, box and line of the sheet's picture goes."""
    drawing = Drawing()
    y = MARGIN
    drawing.texts.append(Text(MARGIN, y, sheet.title, TITLE))
    y += TITLE + 16
    for sentence in sheet.lines:
        drawing.texts.append(Text(MARGIN, y, sentence, TEXT))
        y += TEXT + 10
    right = max([_width(sheet.title, TITLE), *(_width(s, TEXT) for s in sheet.lines)]) + MARGIN
    for section in sheet.sections:
        y += 18
        drawing.texts.append(Text(MARGIN, y, section.heading, TEXT + 4, MUTED))
        y += TEXT + 4 + 14
        widths = [
            max(_width(cell, CELL) for cell in (head, *(row[i] for row in section.rows)))
            for i, head in enumerate(section.columns)
        ]
        lefts = [MARGIN + sum(widths[:i]) + PADDING * i for i in range(len(widths))]
        end = lefts[-1] + widths[-1]
        right = max(right, end)
        for left, head in zip(lefts, section.columns, strict=True):
            drawing.texts.append(Text(left, y, head, CELL, MUTED))
        y += ROW
        drawing.boxes.append(((MARGIN, y - 8, end, y - 7), RULE))
        for row in section.rows:
            if section.columns[0] == "Place" and row[0] == "1":
                drawing.boxes.append(((MARGIN - 8, y - 6, end + 8, y + ROW - 8), LEADER))
            for left, cell in zip(lefts, row, strict=True):
                drawing.texts.append(Text(left, y, cell, CELL))
            y += ROW
    if sheet.chart is not None:
        y = _chart(drawing, sheet.chart, y + 24)
        right = max(right, MARGIN + sheet.chart.width * CHART_SCALE)
    drawing.width = round(right + MARGIN)
    drawing.height = round(y + MARGIN)
    return drawing


def _chart(drawing: Drawing, chart, top: float) -> float:
    """The page's running totals chart, its coordinates scaled: axes' labels, lines, a legend."""
    drawing.texts.append(Text(MARGIN, top, chart.title, TEXT + 4, MUTED))
    top += TEXT + 4 + 10

    def at(x: float, y: float) -> tuple[float, float]:
        return MARGIN + x * CHART_SCALE, top + y * CHART_SCALE

    for tick in chart.y_ticks:
        x, y = at(chart.plot_left, tick.position)
        drawing.boxes.append(((x, y, at(chart.plot_right, 0)[0], y + 1), RULE))
        drawing.texts.append(Text(x - 8 - _width(tick.label, 18), y - 11, tick.label, 18, MUTED))
    for tick in chart.x_ticks:
        x, y = at(tick.position, chart.x_label_y)
        drawing.texts.append(Text(x - _width(tick.label, 18) / 2, y - 18, tick.label, 18, MUTED))
    for line in chart.lines:
        colour = SERIES[line.style % len(SERIES)]
        drawing.lines.append(([at(x, y) for x, y, _ in line.dots], colour, 4))
    y = top + chart.height * CHART_SCALE + 12
    x = MARGIN
    for line in chart.lines:
        colour = SERIES[line.style % len(SERIES)]
        drawing.boxes.append(((x, y + 8, x + 24, y + 14), colour))
        drawing.texts.append(Text(x + 32, y, line.name, 20))
        x += 32 + _width(line.name, 20) + 28
    return y + 32


def sheet_png(sheet: Sheet) -> bytes:
    """The sheet's picture, as PNG."""
    drawing = sheet_drawing(sheet)
    image = Image.new("RGB", (drawing.width, drawing.height), PAPER)
    draw = ImageDraw.Draw(image)
    for box, colour in drawing.boxes:
        draw.rectangle(box, fill=colour)
    for points, colour, width in drawing.lines:
        if len(points) > 1:
            draw.line(points, fill=colour, width=width, joint="curve")
        for x, y in points:
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
    for text in drawing.texts:
        draw.text((text.x, text.y), text.text, fill=text.fill, font=font(text.size))
    output = io.BytesIO()
    image.save(output, format="PNG")
    return output.getvalue()
