"""The `data` command line (argparse only, so that `asi-agent --help` stays instant)."""

from __future__ import annotations

from typing import Any

__all__ = ["add_data_parser"]


def add_data_parser(sub: Any) -> None:
    """`data export`, `data validate`, `data stats` (called by the CLI parser)."""
    data = sub.add_parser(
        "data",
        help="training data: export sessions or eval runs, validate, stats",
        description="Turn sessions and eval runs into training data (spec §5.1 or ms-swift), check it "
        "against the spec §5.3 gates, and show its §5.2 mix.",
    )
    nested = data.add_subparsers(
        dest="data_command", metavar="export|validate|stats", required=True, help="what to do"
    )
    export = nested.add_parser(
        "export",
        help="sessions or eval results → spec §5.1 JSONL or ms-swift JSONL",
        description="Export sessions or eval results as training samples (JSON lines).",
    )
    export.add_argument(
        "sources",
        nargs="*",
        metavar="SOURCE",
        help="session .jsonl files, folders of them, or eval result .json files (default: .asi/sessions/)",
    )
    export.add_argument("--cwd", default=".", help="project root (default: .)")
    export.add_argument("--format", choices=["asi", "ms-swift"], default="asi", help="sample format")
    export.add_argument("--output", "-o", metavar="FILE", help="write here instead of standard output")
    export.add_argument("--dpo", action="store_true", help="write §6.2 preference pairs instead")
    export.add_argument("--failures", action="store_true", help="write §6.3 error-correction samples only")
    export.add_argument(
        "--redact", action="store_true", help="remove absolute paths, user names, e-mails, secrets"
    )
    export.add_argument(
        "--include-unproven",
        "--include-unfinished",
        dest="include_unproven",
        action="store_true",
        help="also export unproven runs: not ended DONE, DONE neither verified nor passed in an eval, "
        "a reply cut off or repeating, a call without a result, no final answer, no recorded request",
    )
    export.add_argument(
        "--mistakes",
        choices=["mask", "drop", "keep"],
        default="mask",
        help="a rejected or failed call (and an ending the runtime turned back): kept with its loss "
        'masked ("loss": false), dropped with its result, or kept as a target (default: mask)',
    )
    export.add_argument(
        "--narration",
        choices=["drop", "keep"],
        default="drop",
        help="the text of an assistant turn that calls tools (default: drop; spec §4.1: calls alone)",
    )
    export.add_argument(
        "--locale",
        choices=["zh", "en"],
        help="language of the tool descriptions of a transcript that did not record its requests "
        "(default: config); recorded runs keep the descriptions they sent",
    )
    validate = nested.add_parser(
        "validate",
        help="check a JSONL file against the spec §5.3 gates",
        description="Check every sample against the spec §5.3 gates; exit 1 when a gate fails.",
    )
    validate.add_argument("file", metavar="FILE", help="the JSONL file to check")
    validate.add_argument("--cwd", default=".", help="project root whose registry is used (default: .)")
    validate.add_argument("--quiet", "-q", action="store_true", help="list only samples with problems")
    stats = nested.add_parser(
        "stats",
        help="the spec §5.2 mix of a JSONL file",
        description="The mix of single-tool, multi-tool, error-correction and no-tool samples; for "
        "preference pairs, what their rejected sides do wrong and where they come from.",
    )
    stats.add_argument("file", metavar="FILE", help="the JSONL file to describe")
    stats.add_argument("--cwd", default=".", help="project root whose registry is used (default: .)")
