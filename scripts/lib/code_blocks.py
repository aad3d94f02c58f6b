#!/usr/bin/env python3
"""Checks that every Swift code block in the given Markdown files is compiled or marked as an excerpt.

The line before a ```swift fence (blank lines aside) must be one of:
  <!-- excerpt -->             the block is a fragment on purpose (undefined names, a test's #expect, …)
  <!-- compiled: PATH -->      the block is compiled from PATH (relative to the repository root): its lines must
                               appear there in the same order and unbroken, indented as the file needs; its
                               `import` lines may stand anywhere in that file.
Prints every block that is neither, or whose compiled copy differs, as `FILE:LINE: reason`, and exits 1 if any.
"""
import os
import re
import sys

MARK = re.compile(r"^<!--\s*(excerpt|compiled:\s*(\S+))\s*-->$")


def blocks(path):
    """Yields (line number of the fence, the marker line or None, the block's lines)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index
            body = []
            index += 1
            while index < len(lines) and lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            previous = start - 1
            while previous >= 0 and not lines[previous].strip():
                previous -= 1
            marker = lines[previous].strip() if previous >= 0 else None
            yield start + 1, marker, body
        index += 1


def dedented(lines):
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents) if indents else 0
    return [line[cut:].rstrip() for line in lines]


def contains_run(haystack, needle):
    """Whether `needle` (dedented) occurs as consecutive lines of `haystack`, with one indentation added to all."""
    if not needle:
        return True
    for start in range(len(haystack) - len(needle) + 1):
        window = haystack[start:start + len(needle)]
        if dedented(window) == needle:
            return True
    return False


def check(path, root):
    problems = []
    for line, marker, body in blocks(path):
        match = MARK.match(marker or "")
        if not match:
            problems.append(f"{path}:{line}: a Swift block that is neither compiled nor marked <!-- excerpt -->")
            continue
        if match.group(1) == "excerpt":
            continue
        source = os.path.join(root, match.group(2))
        if not os.path.isfile(source):
            problems.append(f"{path}:{line}: its compiled copy {match.group(2)} does not exist")
            continue
        copy = [l.rstrip() for l in open(source, encoding="utf-8").read().split("\n")]
        imports = [l.strip() for l in body if l.startswith("import ")]
        code = dedented([l for l in body if not l.startswith("import ")])
        while code and not code[0]:
            code.pop(0)
        missing = [i for i in imports if i not in (l.strip() for l in copy)]
        if missing:
            problems.append(f"{path}:{line}: {match.group(2)} lacks {', '.join(missing)}")
        if not contains_run(copy, code):
            problems.append(f"{path}:{line}: the block differs from its compiled copy in {match.group(2)}")
    return problems


def main():
    root = os.getcwd()
    problems = [p for path in sys.argv[1:] for p in check(path, root)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
