"""Write the published tool schemas: `tools/<name>.json` (locale zh) and `tools/<locale>/<name>.json`.

python scripts/gen_tools.py            regenerate the files
python scripts/gen_tools.py --check    exit 1, listing the files that differ from the code
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asi_agent.tools.catalog import builtin_specs
from asi_agent.tools.schema import LOCALES, render_schema_files

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "tools"


def _stale(out: Path, expected: dict[str, str]) -> list[str]:
    """Generated-looking files that no tool produces any more."""
    folders = [out] + [out / locale for locale in LOCALES]
    found = {path.relative_to(out).as_posix() for folder in folders for path in folder.glob("*.json")}
    return sorted(found - expected.keys())


def drifted(out: Path) -> list[str]:
    """The files under `out` that are missing, different, or left over."""
    expected = render_schema_files(builtin_specs())
    changed = [
        name
        for name, text in expected.items()
        if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != text
    ]
    return sorted(changed + _stale(out, expected))


def write(out: Path) -> list[str]:
    """Bring `out` in line with the code; returns what changed."""
    expected = render_schema_files(builtin_specs())
    changes = drifted(out)
    for name in changes:
        path = out / name
        if name in expected:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(expected[name], encoding="utf-8")
        else:
            path.unlink()
    return changes


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report drift instead of writing")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder to write (default: tools/)")
    options = parser.parse_args(argv)
    if options.check:
        changes = drifted(options.out)
        for name in changes:
            print(f"drifted: {options.out / name}")
        return 1 if changes else 0
    for name in write(options.out):
        print(f"wrote: {options.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
