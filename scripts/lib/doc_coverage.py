#!/usr/bin/env python3
"""Lists the public symbols declared in the project's sources that have no doc comment.

Reads the compiler's symbol graphs (MODULE.symbols.json and MODULE@OTHER.symbols.json) of the modules named on the
command line. A symbol counts when the project declares it, in either of two ways:

- written in the sources: it has a source location under the project's Sources/ folder (and is not a protocol's
  default member, which the graph marks ::SYNTHESIZED::); it needs a doc comment of its own;
- written by the compiler for a type the sources declare: Decodable's `init(from:)`, RawRepresentable's
  `init(rawValue:)` and the like have no location, and the graph gives them the protocol's comment from the
  standard library, which is not the project's. No comment can be attached to them in the sources, so they need a
  documentation extension in the module's catalog (Sources/MODULE/MODULE.docc/**/*.md whose title is
  ``MODULE/Type/member``) with an abstract under its title.

An undocumented symbol is printed as `file:line: Module.path` (for a synthesized member, the line of its type).
Exits 1 when there is any, 0 otherwise, and prints a line of totals per module either way.
"""
import json
import os
import re
import sys
from urllib.parse import unquote, urlparse

TITLE = re.compile(r"^#\s+``([^`]+)``\s*$")


def catalog_abstracts(sources, module):
    """The symbol paths (`Type/member`, without the module) that the module's catalog documents with an abstract."""
    catalog = os.path.join(sources, module, f"{module}.docc")
    documented = set()
    for folder, _, files in os.walk(catalog):
        for name in files:
            if not name.endswith(".md"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                lines = [line.strip() for line in handle]
            title = TITLE.match(lines[0]) if lines else None
            if not title:
                continue
            body = [line for line in lines[1:] if line]
            # The abstract is the first paragraph; a metadata block (@Metadata …) or a heading is not one.
            if not body or body[0].startswith(("#", "@", "-", "<")):
                continue
            link = title.group(1)
            documented.add(link[len(module) + 1:] if link.startswith(module + "/") else link)
    return documented


def declared_symbols(graph_dir, module, sources):
    names = [f for f in os.listdir(graph_dir)
             if f == f"{module}.symbols.json" or (f.startswith(f"{module}@") and f.endswith(".symbols.json"))]
    extensions = catalog_abstracts(sources, module)
    seen = {}
    for name in sorted(names):
        with open(os.path.join(graph_dir, name)) as handle:
            graph = json.load(handle)
        symbols = {symbol["identifier"]["precise"]: symbol for symbol in graph.get("symbols", [])}
        owners = {r["source"]: r["target"] for r in graph.get("relationships", []) if r["kind"] == "memberOf"}
        for precise, symbol in symbols.items():
            if "::SYNTHESIZED::" in precise:
                continue
            components = symbol["pathComponents"]
            location = symbol.get("location")
            if location:
                comment = symbol.get("docComment", {})
                documented = bool(comment.get("lines")) and comment.get("module", module) == module
            else:
                # Written by the compiler: it counts when its owner is the project's own type.
                owner = symbols.get(owners.get(precise, ""), {})
                location = owner.get("location")
                if not location:
                    continue
                documented = "/".join(components) in extensions
            path = unquote(urlparse(location["uri"]).path)
            if not path.startswith(sources):
                continue
            line = location.get("position", {}).get("line", 0) + 1
            key = (precise, path)
            written = "has no doc comment" if symbol.get("location") else (
                f"is written by the compiler: document it in {module}.docc, in a file titled "
                f"``{module}/{'/'.join(components)}``")
            seen[key] = seen.get(key, (False,))[0] or documented, path, line, ".".join(components), written
    return seen.values()


def main():
    if len(sys.argv) < 4:
        print("usage: doc_coverage.py SYMBOL_GRAPH_DIR SOURCES_DIR MODULE...", file=sys.stderr)
        return 2
    graph_dir, sources = sys.argv[1], os.path.realpath(sys.argv[2]) + os.sep
    missing = 0
    for module in sys.argv[3:]:
        symbols = list(declared_symbols(graph_dir, module, sources))
        undocumented = sorted((path, line, name, why) for documented, path, line, name, why in symbols if not documented)
        for path, line, name, why in undocumented:
            print(f"{os.path.relpath(path)}:{line}: {module}.{name} {why}")
        documented = len(symbols) - len(undocumented)
        print(f"docs: {module}: {documented} of {len(symbols)} public symbols documented", file=sys.stderr)
        missing += len(undocumented)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
