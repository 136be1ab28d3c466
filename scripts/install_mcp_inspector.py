"""Install the MCP Inspector (`@modelcontextprotocol/inspector`, from the npm registry) into a folder
outside the repository, once, and print the path of its command.

    python scripts/install_mcp_inspector.py [FOLDER]

FOLDER defaults to `mcp-inspector/` in the user's cache (`ASI_INSPECTOR_DIR` overrides it). Needs `npm`.
The MCP tests call it to drive `asi-agent mcp serve` with a client nobody here wrote.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

VERSION = "2.12.0"
PACKAGE = f"@modelcontextprotocol/inspector@{VERSION}"


def default_folder() -> Path:
    """`ASI_INSPECTOR_DIR`, else the user's cache folder's `mcp-inspector/`."""
    if os.environ.get("ASI_INSPECTOR_DIR"):
        return Path(os.environ["ASI_INSPECTOR_DIR"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "asi-agent-dev" / "mcp-inspector"


def install(folder: Path) -> Path:
    """The Inspector's command in `folder`, installed there first if it is not yet."""
    command = folder / "node_modules" / ".bin" / "mcp-inspector"
    if command.exists():
        return command
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is not installed: the MCP Inspector comes from the npm registry")
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent", PACKAGE],
        check=True,
        timeout=900,
    )
    return command


def main() -> None:
    """Install (if needed) and print the command's path."""
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else default_folder()
    print(install(folder.resolve()))


if __name__ == "__main__":
    main()
