#!/usr/bin/env python3
"""logslice - print the interesting part of a log file."""
import argparse
import re
import sys
from datetime import datetime

LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LINE_RE = re.compile(
    r"^(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) (?P<level>[A-Z]+) (?P<msg>.*)$"
)


def parse_line(line):
    """Split a log line into (timestamp, level, message), or None."""
    if len(line) > 4096:
        line = line[:4096]
    m = LINE_RE.match(line.rstrip("\n"))
    if not m:
        return None
    ts = datetime.strptime(m["ts"], "%Y-%m-%d %H:%M:%S")
    return ts, m["level"], m["msg"]


def filter_lines(lines, min_level="INFO", since=None):
    threshold = LEVELS.index(min_level)
    for line in lines:
        parsed = parse_line(line)
        if parsed is None:
            continue
        ts, level, msg = parsed
        if level not in LEVELS or LEVELS.index(level) < threshold:
            continue
        if since is not None and ts < since:
            continue
        yield ts, level, msg


def count_by_level(lines):
    counts = {}
    for line in lines:
        parsed = parse_line(line)
        if parsed:
            counts[parsed[1]] = counts.get(parsed[1], 0) + 1
    return counts


def build_parser():
    p = argparse.ArgumentParser(prog="logslice", description=__doc__)
    p.add_argument("path", help="log file to read ('-' for stdin)")
    p.add_argument("--level", default="INFO", choices=LEVELS,
                   help="lowest level to show")
    p.add_argument("--limit", type=int, default=200,
                   help="print at most this many lines")
    p.add_argument("--since", help="only lines after YYYY-MM-DD HH:MM:SS")
    p.add_argument("--stats", action="store_true",
                   help="print a count per level instead of lines")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    stream = sys.stdin if args.path == "-" else open(args.path, encoding="utf-8")
    with stream:
        lines = list(stream)
    if args.stats:
        for level, n in sorted(count_by_level(lines).items()):
            print(f"{level}: {n}")
        return 0
    since = None
    if args.since:
        since = datetime.strptime(args.since, "%Y-%m-%d %H:%M:%S")
    for i, (ts, level, msg) in enumerate(filter_lines(lines, args.level, since)):
        if i >= args.limit:
            break
        print(f"{ts:%Y-%m-%d %H:%M:%S} {level} {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
