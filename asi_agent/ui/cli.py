"""The `asi-agent` command line. Parsing only: handlers live in `headless` and `commands`, imported on use."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from asi_agent.argtypes import positive, seconds

__all__ = ["EXIT_INTERRUPTED", "EXIT_USAGE", "UsageParser", "build_parser", "entry", "main", "project_root"]

EXIT_INTERRUPTED = 130
# The values of config's CallFormat, spelled out here so that `--help` does not import pydantic.
CALL_FORMATS = (
    "auto", "asi", "hermes", "qwen-xml", "glm", "mistral", "llama", "pythonic", "function-tag", "tool-calls",
    "deepseek", "kimi", "harmony", "functiongemma", "functionary", "command-r", "json",
)  # fmt: skip
EXIT_USAGE = 1
"""Usage errors are errors of the person's making, like a bad config: exit 1 (2 means the agent stopped)."""
MACHINE_FORMATS = ("json", "stream-json")


class UsageParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors exit 1 and, for json output, still end stdout with a result."""

    def error(self, message: str) -> NoReturn:
        """Print usage and the message to stderr; exit 1."""
        self.print_usage(sys.stderr)
        if _wants_json(sys.argv[1:] if _ARGV is None else _ARGV):
            from asi_agent.ui.output import error_object  # noqa: PLC0415 - only on this error

            print(json.dumps(error_object(f"usage: {message}")), flush=True)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


_ARGV: list[str] | None = None


def _wants_json(argv: Sequence[str]) -> bool:
    for index, word in enumerate(argv):
        if word.startswith("--output-format="):
            return word.split("=", 1)[1] in MACHINE_FORMATS
        if word == "--output-format" and index + 1 < len(argv):
            return argv[index + 1] in MACHINE_FORMATS
    return False


class _VersionAction(argparse.Action):
    """`--version`, reading the installed version only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit", **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

        try:
            number = version("asi-agent")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        print(f"asi-agent {number}")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand."""
    parser = UsageParser(
        prog="asi-agent",
        description="A local coding assistant: a model decides, asi-agent runs real tools on your project.",
        epilog="Exit codes of run/resume: 0 done, 1 error (usage too), 2 the agent stopped, "
        "3 turn limit, 4 --timeout reached, 130 interrupted.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help="what to do (default: chat)")
    run = sub.add_parser(
        "run",
        help="run one task headless",
        description="Run one task headless in the project folder; the exit code says how it ended.",
    )
    run.add_argument("task", help='the task; "-" reads it from standard input')
    _run_options(run)
    chat = sub.add_parser(
        "chat",
        help="interactive chat in the current folder (the default)",
        description="Chat with the agent in the current folder.",
    )
    chat.add_argument("--plain", action="store_true", help="line-mode chat instead of the full-screen app")
    _run_options(chat)
    resume = sub.add_parser(
        "resume",
        help="continue a saved session",
        description="Continue a saved session. Its provider, model, tool mode and policy are reused unless "
        "given again; options may come before or after ID and TASK.",
    )
    resume.add_argument("session_id", metavar="ID", help="the session to continue (`asi-agent sessions`)")
    resume.add_argument("task", nargs="?", default=None, help="what to do next (default: continue)")
    _run_options(resume)
    tools = sub.add_parser(
        "tools",
        help="list built-in and plugin tools",
        description="List the built-in tools and the tools of moss-tools.json (MCP servers included).",
    )
    tools.add_argument("--json", action="store_true", help="print the tool schemas as JSON")
    tools.add_argument(
        "--check", action="store_true", help="validate the plugin manifests; exit 1 on any problem"
    )
    tools.add_argument("--cwd", default=".", help="project root (default: .)")
    tools.add_argument(
        "--trust", action="store_true", help="trust the folder for this listing: its MCP servers start"
    )
    undo = sub.add_parser(
        "undo",
        help="revert the last N journaled changes",
        description="Revert the last N changes asi-agent made (edits, creates, deletes), newest first.",
    )
    undo.add_argument(
        "count", nargs="?", type=positive, default=1, metavar="N", help="how many changes (default: 1)"
    )
    undo.add_argument("--cwd", default=".", help="project root (default: .)")
    sessions = sub.add_parser(
        "sessions",
        help="list saved sessions",
        description="List the project's saved sessions, newest first.",
    )
    sessions.add_argument("--cwd", default=".", help="project root (default: .)")
    hooks = sub.add_parser(
        "hooks",
        help="list the active hooks",
        description="List the hooks of settings.json: yours, and a trusted project's (.asi/, .claude/).",
    )
    hooks.add_argument("--cwd", default=".", help="project root (default: .)")
    hooks.add_argument("--trust", action="store_true", help="list as if the folder were trusted")
    _trust_commands(sub)
    _git_commands(sub)
    _model_adaptation_parsers(sub)
    from asi_agent.acp.options import add_acp_parser  # noqa: PLC0415 - argparse only, cheap

    add_acp_parser(sub)
    from asi_agent.gateway.options import add_serve_parser  # noqa: PLC0415 - argparse only, cheap

    add_serve_parser(sub)
    from asi_agent.ui.plugin_options import add_plugins_parser  # noqa: PLC0415 - argparse only, cheap

    add_plugins_parser(sub)
    from asi_agent.mcpserve.options import add_mcp_parser  # noqa: PLC0415 - argparse only, cheap

    add_mcp_parser(sub)
    from asi_agent.ui.skill_options import add_skills_parser  # noqa: PLC0415 - argparse only, cheap

    add_skills_parser(sub)
    return parser


def _trust_commands(sub: argparse._SubParsersAction[UsageParser]) -> None:
    trust = sub.add_parser(
        "trust",
        help="trust a project folder (default: the current one), or list the trusted ones",
        description="Trust a project folder and the folders below it: its own settings, policies, plugins "
        "and MCP servers are then used in full. Untrusted, they can only narrow your configuration. "
        "Kept in your configuration folder by the folder's real path.",
    )
    trust.add_argument("path", nargs="?", metavar="PATH", help="the folder (default: .)")
    trust.add_argument("--list", action="store_true", help="list the trusted folders")
    untrust = sub.add_parser(
        "untrust",
        help="stop trusting a project folder (default: the current one)",
        description="Remove a folder from the trusted ones.",
    )
    untrust.add_argument("path", nargs="?", metavar="PATH", help="the folder (default: .)")


def _git_commands(sub: argparse._SubParsersAction[UsageParser]) -> None:
    diff = sub.add_parser(
        "diff",
        help="show the changes of a session (default: the latest)",
        description="Show the changes a session made, as a unified diff.",
    )
    diff.add_argument("--session", metavar="ID", help="the session (default: the latest that changed files)")
    diff.add_argument("--stat", action="store_true", help="only the changed files and line counts")
    diff.add_argument("--cwd", default=".", help="project root (default: .)")
    checkpoints = sub.add_parser(
        "checkpoints",
        help="list git checkpoints, or restore one",
        description="A run saves a checkpoint before its first change (refs/asi/checkpoints/).",
    )
    checkpoints.add_argument(
        "action", nargs="?", choices=["list", "restore"], default="list", help="list (default) or restore"
    )
    checkpoints.add_argument("id", nargs="?", metavar="ID", help="the checkpoint to restore")
    checkpoints.add_argument("--cwd", default=".", help="project root (default: .)")


def _model_adaptation_parsers(sub: argparse._SubParsersAction[UsageParser]) -> None:
    from asi_agent.data.options import add_data_parser  # noqa: PLC0415 - argparse only, cheap
    from asi_agent.eval.options import add_eval_parser  # noqa: PLC0415

    add_eval_parser(sub)
    add_data_parser(sub)


def _run_options(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--cwd", default=".", help="project root (default: .)")
    add(
        "--provider",
        choices=["openai", "ollama", "local", "scripted", "anthropic"],
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
    add(
        "--chat-template",
        metavar="FILE",
        help="the model's Jinja chat template: calls are read as it writes them (default: ask the server)",
    )
    add("--approval", choices=["ask", "auto-edit", "plan", "yolo"], help="permission mode (default: ask)")
    add("--yes", action="store_true", help="never ask (same as --approval yolo)")
    add("--policy", help="policy preset name or TOML file")
    add("--max-turns", type=positive, metavar="N", help="upper bound on model requests (default: 30)")
    add(
        "--output-format",
        choices=["text", "json", "stream-json"],
        default="text",
        help="text for people (default); json: one result object; stream-json: one object per event",
    )
    add("--resume", metavar="ID", help="continue the saved session ID")
    add("--cursor", metavar="PATH:LINE[:COL]", help="the editor cursor, for get_cursor_context")
    add("--auto-commit", action="store_true", help="commit each completed task to git (config: auto_commit)")
    add("--allow-dirty", action="store_true", help="with --auto-commit, start even on uncommitted changes")
    add(
        "--no-sandbox",
        action="store_true",
        help="run commands without the OS sandbox, as you (explicit; shown in the status and the result)",
    )
    add("--allow-network", action="store_true", help="let sandboxed commands use the network")
    add("--trust", action="store_true", help="trust the project folder for this run (not stored)")
    add(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="end the run after this wall-clock time with status TIMEOUT, exit code 4 (default: none)",
    )


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse the command line; `resume` takes its options before or after ID and TASK."""
    global _ARGV  # noqa: PLW0603 - the parser's error() needs the words to honour --output-format json
    _ARGV = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, extra = parser.parse_known_args(_ARGV)
    # argparse binds an optional positional (TASK) to nothing when an option follows ID, leaving the
    # task as an "unrecognized" word: give it back to `resume`.
    if args.command == "resume" and args.task is None and len(extra) == 1 and not extra[0].startswith("-"):
        args.task, extra = extra[0], []
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def project_root(args: argparse.Namespace) -> Path:
    """The `--cwd` folder, resolved; UserError when it is not a folder."""
    from asi_agent.exceptions import UserError  # noqa: PLC0415 - keep `--help` instant

    root = Path(os.path.expanduser(args.cwd)).resolve()
    if not root.is_dir():
        raise UserError(f"--cwd {args.cwd}: not a directory")
    return root


def entry() -> None:
    """The `asi-agent` process: `main()`, then exit at once.

    Everything a run keeps is on disk when `main` returns (each transcript and journal record is
    written and flushed as it happens), so the interpreter's teardown — unloading hundreds of
    modules, finalising clients, freeing an in-process model — is skipped: it cost up to a second
    after the result was printed.

    Ctrl-C is ours whatever the process inherited: started with SIGINT ignored (`nohup … &`, some CI
    runners), Python would leave it ignored and neither a run nor a chat could be interrupted.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    code = main(exiting=True)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing left to deliver
            stream.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None, *, exiting: bool = False) -> int:
    """Entry point of `asi-agent` and `python -m asi_agent`; returns the exit code.

    `exiting`: the process ends right after (`entry`), so a run leaves its backend to the operating system.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["chat", *argv]  # `asi-agent [OPTIONS]` is the chat
    args = parse(argv)
    # The in-process model (`--provider local`) has no HTTP request to send ahead.
    if args.command == "run" and args.provider != "local":
        from asi_agent import prefetch  # noqa: PLC0415 - standard library only

        if args.task == "-":  # read now, so that a task on standard input is sent ahead too
            args.task = sys.stdin.read()
        # The first model request leaves now, before the heavy imports; the backend adopts its reply.
        prefetch.start(argv, args.task, args.cwd, provider=args.provider, base_url=args.base_url)
    from asi_agent.exceptions import UserError  # noqa: PLC0415 - keep `--help` instant

    if args.command not in (None, "chat"):  # the chat's UI restores the terminal on its own signals
        signal.signal(signal.SIGTERM, _terminated)
    try:
        return _dispatch(args, exiting=exiting)
    except UserError as exc:
        print(f"asi-agent: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("asi-agent: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _terminated(_signum: int, _frame: object) -> NoReturn:
    """SIGTERM (`kill`, a CI timeout) ends the process as Ctrl-C does: temporary folders are removed,
    the session stays resumable, `--output-format json` still prints its last line, exit code 130."""
    raise KeyboardInterrupt


_FRONT_ENDS = {
    "eval": ("asi_agent.eval.command", "eval_command"),
    "acp": ("asi_agent.acp.command", "acp_command"),
    "data": ("asi_agent.data.command", "data_command"),
    "plugins": ("asi_agent.ui.plugin_commands", "plugins_command"),
    "serve": ("asi_agent.gateway.command", "serve_command"),
    "skills": ("asi_agent.ui.skill_commands", "skills_command"),
    "mcp": ("asi_agent.mcpserve.command", "mcp_command"),
}
"""Subcommands whose handler module is imported only when the subcommand runs."""


def _dispatch(args: argparse.Namespace, *, exiting: bool) -> int:
    command = args.command or "chat"
    if command in ("run", "resume"):
        from asi_agent.ui.headless import run_command  # noqa: PLC0415

        return run_command(args, exiting=exiting)
    if command in _FRONT_ENDS:
        import importlib  # noqa: PLC0415

        module, handler = _FRONT_ENDS[command]
        return int(getattr(importlib.import_module(module), handler)(args))
    from asi_agent.ui import commands, hooks_command  # noqa: PLC0415

    handlers = {
        "tools": commands.tools,
        "undo": commands.undo,
        "sessions": commands.sessions,
        "diff": commands.diff,
        "checkpoints": commands.checkpoints,
        "trust": commands.trust,
        "untrust": commands.untrust,
        "chat": commands.chat,
        "hooks": hooks_command.hooks,
    }
    return handlers[command](args)
