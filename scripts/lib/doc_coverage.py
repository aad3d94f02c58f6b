#!/usr/bin/env python3
"""Lists the public symbols declared in the project's sources that have no doc comment.

Reads the compiler's symbol graphs (MODULE.symbols.json and MODULE@OTHER.symbols.json) of the modules named on the
command line. A symbol counts when the project declares it: it has a source location under the project's Sources/
folder and is not synthesized by the compiler (Equatable's `!=`, a protocol's default members). Such a symbol without
a doc comment of its own is printed as `file:line: Module.path`. Exits 1 when there is any, 0 otherwise, and prints a
line of totals per module either way.
"""
import json
import os
import sys
from urllib.parse import unquote, urlparse


def declared_symbols(graph_dir, module, sources):
    names = [f for f in os.listdir(graph_dir)
             if f == f"{module}.symbols.json" or (f.startswith(f"{module}@") and f.endswith(".symbols.json"))]
    seen = {}
    for name in sorted(names):
        with open(os.path.join(graph_dir, name)) as handle:
            graph = json.load(handle)
        for symbol in graph.get("symbols", []):
            precise = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in precise:
                continue
            location = symbol.get("location")
            if not location:
                continue
            path = unquote(urlparse(location["uri"]).path)
            if not path.startswith(sources):
                continue
            comment = symbol.get("docComment", {})
            documented = bool(comment.get("lines")) and comment.get("module", module) == module
            line = location.get("position", {}).get("line", 0) + 1
            key = (precise, path)
            seen[key] = seen.get(key, False) or documented, path, line, ".".join(symbol["pathComponents"])
    return seen.values()


def main():
    if len(sys.argv) < 4:
        print("usage: doc_coverage.py SYMBOL_GRAPH_DIR SOURCES_DIR MODULE...", file=sys.stderr)
        return 2
    graph_dir, sources = sys.argv[1], os.path.realpath(sys.argv[2]) + os.sep
    missing = 0
    for module in sys.argv[3:]:
        symbols = list(declared_symbols(graph_dir, module, sources))
        undocumented = sorted((path, line, name) for documented, path, line, name in symbols if not documented)
        for path, line, name in undocumented:
            print(f"{os.path.relpath(path)}:{line}: {module}.{name} has no doc comment")
        documented = len(symbols) - len(undocumented)
        print(f"docs: {module}: {documented} of {len(symbols)} public symbols documented", file=sys.stderr)
        missing += len(undocumented)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
