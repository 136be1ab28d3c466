"""Example command plugin: counts lines, words and characters of a text file of the project.

asi-agent runs it in the project root with the call's arguments as JSON on stdin (`{"path": ...}`);
what it prints is the result; a non-zero exit with a message on stderr is an error the model reads.
It needs nothing but the standard library.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    arguments = json.load(sys.stdin)
    path = Path(arguments["path"])
    if not path.is_file():
        print(f"{path} is not a file; give a path relative to the project root", file=sys.stderr)
        return 1
    text = path.read_text(encoding="utf-8", errors="replace")
    print(
        json.dumps(
            {
                "path": arguments["path"],
                "lines": len(text.splitlines()),
                "words": len(text.split()),
                "characters": len(text),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
