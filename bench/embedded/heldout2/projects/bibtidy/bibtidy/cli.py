"""Command line entry point: bibtidy-keys ENTRIES.json"""
import json
import sys

from .keys import dedupe_keys, make_key


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0], encoding="utf-8") as fh:
        entries = json.load(fh)
    keys = dedupe_keys([make_key(e) for e in entries])
    for key, entry in zip(keys, entries):
        print(f"{key}\t{entry.get('title', '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
