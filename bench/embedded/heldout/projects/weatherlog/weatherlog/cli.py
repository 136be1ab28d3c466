"""Command line entry point."""

import sys

from weatherlog.report import format_reading, legacy_format, summary
from weatherlog.storage import load_readings


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    readings = load_readings()
    if "--summary" in argv:
        print(summary(readings))
        return 0
    for reading in readings:
        print(format_reading(reading, fahrenheit="-f" in argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
