#!/usr/bin/env python3
"""Writes every compiled Swift block of the given Markdown files as a reader would paste it: a file of its own.

For each block marked `<!-- compiled: PATH -->` this writes OUT/NNN/main.swift with exactly the block's lines, and
OUT/NNN/where (`FILE:LINE`). A block with `import` lines gets those imports and no others. A block without any
continues the page before it, as a reader pasting a page block by block into one file would: it gets the imports of
the nearest earlier block of the same page that has some. A block may use names that an earlier block of its page, or
the page's setting, defines (a client, a file URL): those come from Examples/pasted/<PAGE>.swift, named after the
Markdown file, written to OUT/NNN/givens when it exists; scripts/examples compiles it as a module of its own that the
block sees without importing, and which brings no module of its own imports into the block's file.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from code_blocks import MARK, blocks, dedented  # noqa: E402


def pasted(path):
    """Yields (line, the file's text as pasted) for every compiled block of one page."""
    imports = []
    for line, marker, body in blocks(path):
        match = MARK.match(marker or "")
        if not match or match.group(1) == "excerpt":
            continue
        own = [l.strip() for l in body if l.startswith("import ")]
        if own:
            imports = own
        code = dedented([l for l in body if not l.startswith("import ")])
        while code and not code[0]:
            code.pop(0)
        yield line, "\n".join(imports + [""] + code) + "\n"


def main():
    out, pages = sys.argv[1], sys.argv[2:]
    root = os.getcwd()
    count = 0
    for page in pages:
        name = os.path.splitext(os.path.basename(page))[0]
        givens = os.path.join(root, "Examples", "pasted", name + ".swift")
        for line, text in pasted(page):
            count += 1
            folder = os.path.join(out, f"{count:03d}")
            os.makedirs(folder)
            with open(os.path.join(folder, "main.swift"), "w", encoding="utf-8") as file:
                file.write(text)
            with open(os.path.join(folder, "where"), "w", encoding="utf-8") as file:
                file.write(f"{page}:{line}\n")
            if os.path.isfile(givens):
                with open(os.path.join(folder, "givens"), "w", encoding="utf-8") as file:
                    file.write(givens + "\n")
    print(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
