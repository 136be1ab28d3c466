from datetime import datetime

from logslice import build_parser, count_by_level, filter_lines, parse_line

SAMPLE = [
    "2026-11-02 08:00:01 INFO service started\n",
    "2026-11-02 08:00:05 DEBUG cache warmed\n",
    "2026-11-02 08:01:10 WARNING disk 91% full\n",
    "not a log line\n",
    "2026-11-02 08:02:00 ERROR upload failed: timeout\n",
]


def test_parse_line():
    ts, level, msg = parse_line(SAMPLE[0])
    assert ts == datetime(2026, 11, 2, 8, 0, 1)
    assert level == "INFO"
    assert msg == "service started"


def test_parse_line_rejects_garbage():
    assert parse_line("not a log line") is None


def test_filter_by_level():
    levels = [level for _, level, _ in filter_lines(SAMPLE, "WARNING")]
    assert levels == ["WARNING", "ERROR"]


def test_filter_since():
    since = datetime(2026, 11, 2, 8, 1, 0)
    msgs = [msg for _, _, msg in filter_lines(SAMPLE, "DEBUG", since)]
    assert msgs == ["disk 91% full", "upload failed: timeout"]


def test_count_by_level():
    assert count_by_level(SAMPLE) == {"INFO": 1, "DEBUG": 1, "WARNING": 1, "ERROR": 1}


def test_parser_defaults():
    args = build_parser().parse_args(["app.log"])
    assert args.since is None
    assert args.stats is False
