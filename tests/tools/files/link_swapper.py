"""A harmless attacker: swaps a project folder with a link to an outside folder, in a tight loop.

    python link_swapper.py FOLDER LINK_TARGET STOP_FILE

FOLDER (a real folder) and a link to LINK_TARGET trade places atomically (renameat2 RENAME_EXCHANGE),
over and over, until STOP_FILE exists; FOLDER is a real folder again when it ends. It writes nothing
but the link and prints how many swaps it made. Used by the race tests, in-process and through the CLI
(where it runs inside the sandbox, in the project).
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

RENAME_EXCHANGE = 2
AT_FDCWD = -100


def main() -> None:
    """Swap until the stop file appears."""
    folder, target, stop = sys.argv[1:4]
    link = f"{folder}.swap-link"
    os.symlink(target, link)
    libc = ctypes.CDLL(None, use_errno=True)
    names = (os.fsencode(folder), os.fsencode(link))

    def exchange() -> None:
        if libc.renameat2(AT_FDCWD, names[0], AT_FDCWD, names[1], RENAME_EXCHANGE) != 0:
            raise OSError(ctypes.get_errno(), "renameat2")

    swaps = 0
    print("swapping", flush=True)
    while not os.path.exists(stop):
        exchange()  # FOLDER is now the link
        exchange()  # and a folder again
        swaps += 2
        if swaps % 512 == 0:
            time.sleep(0.0002)  # a breath now and then, so that some calls also find the folder in place
    os.unlink(link)
    print(f"swapped {swaps} times", flush=True)


if __name__ == "__main__":
    main()
