"""Renders a tmux screen captured with its colours (`tmux capture-pane -e -p`) as a PNG, for the README.

    python3 docs/render_terminal.py CAPTURE.txt COLUMNS ROWS OUT.png

Reads the SGR sequences tmux writes (reset, bold, dim, reverse, the 16 colours, the 256-colour palette and 24-bit
colour) and draws every cell with DejaVu Sans Mono through Pillow (Debian's python3-pil and fonts-dejavu-core).
Wide characters take two cells, as on the terminal.
"""
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 15
FOREGROUND = (220, 220, 215)
BACKGROUND = (24, 26, 30)
BASIC = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205),
         (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234),
         (214, 112, 214), (41, 184, 219), (255, 255, 255)]


def palette(index):
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return levels[index // 36], levels[(index // 6) % 6], levels[index % 6]
    grey = 8 + (index - 232) * 10
    return grey, grey, grey


def width(character):
    if unicodedata.combining(character):
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def apply(codes, style):
    codes = codes or [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            style.update(fg=None, bg=None, bold=False, dim=False, reverse=False)
        elif code == 1:
            style["bold"] = True
        elif code == 2:
            style["dim"] = True
        elif code == 22:
            style.update(bold=False, dim=False)
        elif code == 7:
            style["reverse"] = True
        elif code == 27:
            style["reverse"] = False
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style["fg"] = BASIC[code - 30 if code < 90 else code - 82]
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style["bg"] = BASIC[code - 40 if code < 100 else code - 92]
        elif code == 39:
            style["fg"] = None
        elif code == 49:
            style["bg"] = None
        elif code in (38, 48) and i + 1 < len(codes):
            key = "fg" if code == 38 else "bg"
            if codes[i + 1] == 2 and i + 4 < len(codes):
                style[key] = tuple(codes[i + 2:i + 5])
                i += 4
            elif codes[i + 1] == 5 and i + 2 < len(codes):
                style[key] = palette(codes[i + 2])
                i += 2
        i += 1


def parse(text, columns, rows):
    """The cells of the capture: (character, foreground, background, bold) per cell, None for a wide right half."""
    blank = (" ", FOREGROUND, BACKGROUND, False)
    grid = [[blank] * columns for _ in range(rows)]
    style = dict(fg=None, bg=None, bold=False, dim=False, reverse=False)
    for row, line in enumerate(text.split("\n")[:rows]):
        column = 0
        i = 0
        while i < len(line):
            if line[i] == "\x1b" and i + 1 < len(line) and line[i + 1] == "[":
                end = i + 2
                while end < len(line) and not line[end].isalpha():
                    end += 1
                if end < len(line) and line[end] == "m":
                    apply([int(part) for part in line[i + 2:end].split(";") if part.isdigit()], style)
                i = end + 1
                continue
            character = line[i]
            i += 1
            cells = width(character)
            if cells == 0 or column + cells > columns:
                continue
            fg = style["fg"] or FOREGROUND
            bg = style["bg"] or BACKGROUND
            if style["reverse"]:
                fg, bg = bg, fg
            if style["dim"]:
                fg = tuple((a + b) // 2 for a, b in zip(fg, bg))
            grid[row][column] = (character, fg, bg, style["bold"])
            if cells == 2:
                grid[row][column + 1] = None
            column += cells
    return grid


def render(grid, out):
    font = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(BOLD, SIZE)
    left, top, right, bottom = font.getbbox("M")
    cell_width = int(font.getlength("M"))
    cell_height = SIZE + 4
    columns, rows = len(grid[0]), len(grid)
    image = Image.new("RGB", (columns * cell_width + 16, rows * cell_height + 16), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, cells in enumerate(grid):
        for column, cell in enumerate(cells):
            if cell is None:
                continue
            character, fg, bg, is_bold = cell
            span = 2 if column + 1 < columns and cells[column + 1] is None else 1
            x, y = 8 + column * cell_width, 8 + row * cell_height
            draw.rectangle([x, y, x + span * cell_width - 1, y + cell_height - 1], fill=bg)
            if character == "▀":
                # Drawn as two rectangles, not a glyph: a font's block leaves gaps between rows.
                draw.rectangle([x, y, x + cell_width - 1, y + cell_height // 2 - 1], fill=fg)
            elif character != " ":
                draw.text((x, y + 2), character, font=bold if is_bold else font, fill=fg)
    image.save(out, optimize=True)


def main():
    capture, columns, rows, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    with open(capture, encoding="utf-8") as f:
        render(parse(f.read(), columns, rows), out)


if __name__ == "__main__":
    main()
