"""Checks HAR files with two readers that are not Errand's: the HAR 1.2 JSON schema beside this file (jsonschema)
and haralyzer's parser, which reads every entry's request, response and timings.

    validate_har.py FILE_OR_FOLDER...    prints one line per file, then how many were valid; exit 1 on any failure
"""
import json
import os
import pathlib
import sys

import jsonschema

# Where no package index was reachable to install haralyzer, scripts/lib/servers.sh says so and the schema alone
# checks; anywhere else a missing haralyzer is an error.
SCHEMA_ONLY = os.environ.get("ERRAND_HAR_SCHEMA_ONLY") == "1"
if not SCHEMA_ONLY:
    from haralyzer import HarEntry, HarParser

SCHEMA = json.loads((pathlib.Path(__file__).parent / "har-1.2.schema.json").read_text())
VALIDATOR = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def check(path):
    """The problems found in one file (empty when it is valid)."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return [f"not JSON: {error}"]
    problems = [f"schema: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(document)]
    if problems or SCHEMA_ONLY:
        return problems
    try:
        parser = HarParser(document)
        for raw in parser.har_data["entries"]:
            entry = HarEntry(raw)
            # Reading each property makes haralyzer parse it: the URL, status, MIME type, headers and timings.
            _ = (entry.url, entry.status, entry.request.method, entry.response.mimeType, entry.request.headers,
                 entry.response.headers, entry.timings, entry.startTime, entry.time)
    except Exception as error:  # haralyzer raises whatever its parsing meets
        return [f"haralyzer: {type(error).__name__}: {error}"]
    return []


def main(arguments):
    files = []
    for argument in arguments:
        path = pathlib.Path(argument)
        files += sorted(path.glob("*.har")) if path.is_dir() else [path]
    failed = 0
    for path in files:
        problems = check(path)
        failed += bool(problems)
        print(f"{'ok' if not problems else 'INVALID'} {path}")
        for problem in problems[:10]:
            print(f"    {problem}")
    readers = "the schema" if SCHEMA_ONLY else "the schema and haralyzer"
    print(f"HAR check ({readers}): {len(files) - failed} of {len(files)} files valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
