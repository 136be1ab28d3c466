"""The `asi-agent` command line. Parsing only: handlers live in `headless` and `commands`, imported on use."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]

EXIT_INTERRUPTED = 130
# The values of config's CallFormat, spelled out here so that `--help` does not import pydantic.
CALL_FORMATS = (
    "auto", "asi", "hermes", "qwen-xml", "glm", "mistral", "llama", "pythonic", "function-tag", "tool-calls",
    "deepseek", "kimi", "harmony", "functiongemma", "functionary", "command-r", "json",
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="asi-agent",
        description="A local coding assistant: a model decides, asi-agent runs real tools on your project.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser("run", help="run one task headless", description="Run one task headless.")
    run.add_argument("task", help='the task; "-" reads it from standard input')
    _run_options(run)
    chat = sub.add_parser("chat", help="interactive chat in the current folder (the default)")
    _run_options(chat)
    resume = sub.add_parser("resume", help="continue a saved session")
    resume.add_argument("session_id", metavar="ID")
    resume.add_argument("task", nargs="?", default=None, help="what to do next (default: continue)")
    _run_options(resume)
    tools = sub.add_parser("tools", help="list built-in and plugin tools")
    tools.add_argument("--json", action="store_true", help="print the tool schemas as JSON")
    tools.add_argument(
        "--check", action="store_true", help="validate the plugin manifests; exit 1 on any problem"
    )
    tools.add_argument("--cwd", default=".", help="project root (default: .)")
    undo = sub.add_parser("undo", help="revert the last N journaled changes")
    undo.add_argument("count", nargs="?", type=_positive, default=1, metavar="N")
    undo.add_argument("--cwd", default=".", help="project root (default: .)")
    sessions = sub.add_parser("sessions", help="list saved sessions")
    sessions.add_argument("--cwd", default=".", help="project root (default: .)")
    _git_commands(sub)
    _model_adaptation_parsers(sub)
    return parser


def _git_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diff = sub.add_parser("diff", help="show the changes of a session (default: the latest)")
    diff.add_argument("--session", metavar="ID", help="the session (default: the latest that changed files)")
    diff.add_argument("--stat", action="store_true", help="only the changed files and line counts")
    diff.add_argument("--cwd", default=".", help="project root (default: .)")
    checkpoints = sub.add_parser(
        "checkpoints",
        help="list git checkpoints, or restore one",
        description="A run saves a checkpoint before its first change (refs/asi/checkpoints/).",
    )
    checkpoints.add_argument("action", nargs="?", choices=["list", "restore"], default="list")
    checkpoints.add_argument("id", nargs="?", metavar="ID", help="the checkpoint to restore")
    checkpoints.add_argument("--cwd", default=".", help="project root (default: .)")


def _model_adaptation_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from asi_agent.data.options import add_data_parser  # noqa: PLC0415 - argparse only, cheap
    from asi_agent.eval.options import add_eval_parser  # noqa: PLC0415

    add_eval_parser(sub)
    add_data_parser(sub)


def _run_options(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--cwd", default=".", help="project root (default: .)")
    add(
        "--provider",
        choices=["openai", "ollama", "local", "scripted"],
        help="model provider (default: detect)",
    )
    add("--model", help="model name (scripted: script file; local: GGUF file)")
    add("--base-url", help="model server address")
    add("--tool-mode", choices=["auto", "native", "text"], help="native tool calls, text emulation, or auto")
    add(
        "--call-format",
        choices=list(CALL_FORMATS),
        metavar="FORMAT",
        help="text mode's call dialect: auto (from the model name) or " + ", ".join(CALL_FORMATS[1:]),
    )
    add("--approval", choices=["ask", "auto-edit", "plan", "yolo"], help="permission mode (default: ask)")
    add("--yes", action="store_true", help="never ask (same as --approval yolo)")
    add("--policy", help="policy preset name or TOML file")
    add("--max-turns", type=_positive, help="upper bound on model requests (default: 30)")
    add("--output-format", choices=["text", "json", "stream-json"], default="text", help="output format")
    add("--resume", metavar="ID", help="continue the saved session ID")
    add("--cursor", metavar="PATH:LINE[:COL]", help="the editor cursor, for get_cursor_context")
    add("--auto-commit", action="store_true", help="commit each completed task to git (config: auto_commit)")
    add("--allow-dirty", action="store_true", help="with --auto-commit, start even on uncommitted changes")


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `asi-agent` and `python -m asi_agent`; returns the exit code."""
    args = build_parser().parse_args(argv)
    from asi_agent.exceptions import UserError  # noqa: PLC0415 - keep `--help` instant

    try:
        return _dispatch(args)
    except UserError as exc:
        print(f"asi-agent: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("asi-agent: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _dispatch(args: argparse.Namespace) -> int:
    command = args.command or "chat"
    if command in ("run", "resume"):
        from asi_agent.ui.headless import run_command  # noqa: PLC0415

        return run_command(args)
    if command == "eval":
        from asi_agent.eval.command import eval_command  # noqa: PLC0415

        return eval_command(args)
    if command == "data":
        from asi_agent.data.command import data_command  # noqa: PLC0415

        return data_command(args)
    from asi_agent.ui import commands  # noqa: PLC0415

    handlers = {
        "tools": commands.tools,
        "undo": commands.undo,
        "sessions": commands.sessions,
        "diff": commands.diff,
        "checkpoints": commands.checkpoints,
        "chat": commands.chat,
    }
    return handlers[command](args)
