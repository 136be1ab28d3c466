"""The `eval` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_eval_parser"]


def add_eval_parser(sub: Any) -> None:
    """The `eval` subcommand and its `compare` subcommand (called by the CLI parser)."""
    ev = sub.add_parser(
        "eval",
        help="evaluate a model on a task suite (spec §8 metrics)",
        description="Run a task suite against a model and report the spec §8 metrics; "
        "`eval compare A.json B.json` shows the differences of two runs.",
    )
    nested = ev.add_subparsers(
        dest="eval_command", metavar="compare A.json B.json", help="compare two saved results"
    )
    cmp = nested.add_parser(
        "compare",
        help="compare two result files (from --output)",
        description="Differences per metric and per task between two result files of `eval --output`.",
    )
    cmp.add_argument("first", metavar="A.json", help="the first result file (the baseline)")
    cmp.add_argument("second", metavar="B.json", help="the second result file")
    cmp.add_argument(
        "--different-tasks",
        action="store_true",
        help="compare runs over different task sets anyway (refused without it: their metrics differ in "
        "what they measure)",
    )
    add = ev.add_argument
    add("--suite", metavar="PATH", help="suite folder (default: the built-in suite)")
    add("--filter", action="append", metavar="GLOB", help="only tasks whose id or a tag matches (repeatable)")
    add("--repeat", type=_positive, default=1, metavar="N", help="run every task N times")
    add("--jobs", type=_positive, default=1, metavar="N", help="tasks run in parallel on this machine")
    add(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the tasks as Ray tasks: a local Ray instance, or the cluster at ADDRESS",
    )
    add("--output", metavar="FILE", help="write the full results (metrics, tasks, transcripts) as JSON")
    add("--provider", choices=["openai", "ollama", "local", "scripted"], help="model provider")
    add("--model", help="model name (scripted: the script file inside each task, default script.json)")
    add("--base-url", help="model server address")
    add("--tool-mode", choices=["auto", "native", "text"], help="native tool calls, text emulation, or auto")
    add("--call-format", help="text-mode call dialect")
    add("--approval", choices=["ask", "auto-edit", "plan", "yolo"], help="permission mode for every task")
    add("--policy", help="policy preset name or TOML file")
    add("--max-turns", type=_positive, help="turn limit for every task (default: each task's own)")


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number
