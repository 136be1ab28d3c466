"""`asi-agent run` and `asi-agent resume`: one task, no screen, an exit code that says how it ended."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import Any

from asi_agent import prefetch
from asi_agent.agent import Agent, AgentConfig
from asi_agent.bounds import RunWatch
from asi_agent.config import AsiConfig, load_config, user_config_dir
from asi_agent.context import ContextConfig
from asi_agent.events import AgentEvent, ApprovalRequested, RunFinished, progress_sink, report_progress
from asi_agent.exceptions import UserError
from asi_agent.gate import GateConfig
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.policy import load_policy
from asi_agent.prompts import ProjectPrompt, project_prompt
from asi_agent.providers import create_backend, offered_tools, provider_of
from asi_agent.session import Session, SessionStore
from asi_agent.toolrun import BackendModel, ToolRunner
from asi_agent.tools.base import Cursor, ToolContext
from asi_agent.tools.files.journal import Journal, RecoveryReport
from asi_agent.tools.registry import REGISTRY_KEY
from asi_agent.ui.cli import EXIT_INTERRUPTED, project_root
from asi_agent.ui.confirm import ask_in_terminal
from asi_agent.ui.gitrun import attach_git, finish_git
from asi_agent.ui.output import Renderer, make_renderer
from asi_agent.ui.progress import ProgressLine, wants_progress
from asi_agent.ui.threads import abandon_threads_at_exit, leave

__all__ = ["EXIT_CODES", "assemble_agent", "config_flags", "drive", "run_command"]

EXIT_CODES = {"DONE": 0, "ERROR": 1, "STOP": 2, "MAX_TURNS": 3, "TIMEOUT": 4}
CURSOR_RE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
MODEL_SETTINGS = ("provider", "model", "base_url")
"""Reused by `resume` together, or not at all: another provider's model name would be meaningless."""


def run_command(args: argparse.Namespace, *, exiting: bool = False) -> int:
    """Run (or resume) one task and return the exit code of DESIGN.md.

    With json output, every way out (errors and interrupts included) ends stdout with the result object.
    `exiting` (the process ends right after): the backend is not closed — freeing an in-process model
    took 0.1–0.2 s after the result was printed, and the operating system reclaims it at once.
    """
    renderer = make_renderer(args.output_format)
    progress = ProgressLine(sys.stderr, enabled=wants_progress(sys.stderr, args.output_format))
    progress.start()
    try:
        with progress_sink(progress.report if progress.enabled else None), progress.guarding_stderr():
            return _run(args, renderer, progress, close_backend=not exiting)
    except (UserError, KeyboardInterrupt) as exc:
        progress.stop()
        renderer.fail(str(exc) or "interrupted")
        raise
    except Exception as exc:  # our bug: it propagates (with its traceback), but scripts still get a result
        progress.stop()
        renderer.fail(f"internal error: {type(exc).__name__}: {exc}")
        raise
    finally:
        progress.stop()


def _run(args: argparse.Namespace, renderer: Renderer, progress: ProgressLine, *, close_backend: bool) -> int:
    root = project_root(args)
    task = _task(args)
    store = SessionStore(root / ".asi")
    resumed = store.open(args.resume) if args.resume else None
    config = load_config(root, _with_session(config_flags(args), resumed))
    report_progress("preparing the model", config.provider or "detecting the provider")
    backend = create_backend(config)
    session = resumed or store.create(cwd=str(root), settings=_settings(config, backend))
    agent = _agent(root, config, backend, args, session)
    allow_dirty = bool(getattr(args, "allow_dirty", False))
    git = attach_git(agent, root, task, auto_commit=config.auto_commit, allow_dirty=allow_dirty)
    watch = RunWatch(agent)
    try:
        running = _drive(agent, task, renderer, watch, progress, timeout=config.timeout, close=close_backend)
        end = asyncio.run(running)
    except KeyboardInterrupt:
        progress.stop()
        renderer.show(watch.end("ERROR", "interrupted"))
        return leave(EXIT_INTERRUPTED)
    finish_git(git, end, auto_commit=config.auto_commit, model=backend.model_name)
    return leave(EXIT_CODES[end.status]) if end.status == "TIMEOUT" else EXIT_CODES[end.status]


def _with_session(flags: dict[str, Any], resumed: Session | None) -> dict[str, Any]:
    """The flags, completed with the resumed session's settings where no flag overrides them."""
    if resumed is None:
        return flags
    settings = resumed.settings()
    if any(flags.get(key) is not None for key in MODEL_SETTINGS):
        settings = {k: v for k, v in settings.items() if k not in MODEL_SETTINGS}
    given = {k: v for k, v in flags.items() if v is not None}
    return {**settings, **given}


def _settings(config: AsiConfig, backend: Any) -> dict[str, Any]:
    """What a resumed session reuses: the provider actually used, its model, tool mode and policy."""
    provider = config.provider or provider_of(backend)
    model = config.model
    if provider in ("scripted", "local") and model and Path(model).is_file():
        model = str(Path(model).resolve())  # a script or GGUF file, resumed from any folder
    elif provider in ("openai", "ollama"):
        model = backend.model_name  # the model auto-detection chose
    return {
        "provider": provider,
        "model": model,
        "base_url": config.base_url,
        "tool_mode": config.tool_mode,
        "policy": config.policy,
    }


def _task(args: argparse.Namespace) -> str:
    if args.command == "resume":
        args.resume = args.session_id
        return args.task or "Continue the task where you left off."
    task: str = sys.stdin.read() if args.task == "-" else args.task
    if not task.strip():
        raise UserError("the task is empty: pass it as an argument or on standard input with '-'")
    return task.strip()


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The configuration the command-line options set (None where an option was not given), for `load_config`.

    UserError for `--yes` with an `--approval` other than yolo."""
    if args.yes and args.approval not in (None, "yolo"):
        raise UserError(
            f"--yes means --approval yolo and conflicts with --approval {args.approval}: give one of them"
        )
    return {
        "policy": args.policy,
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "tool_mode": args.tool_mode,
        "call_format": args.call_format,
        "approval": "yolo" if args.yes else args.approval,
        "max_turns": args.max_turns,
        "auto_commit": True if getattr(args, "auto_commit", False) else None,
        "timeout": args.timeout,
    }


def _agent(root: Path, config: AsiConfig, backend: Any, args: argparse.Namespace, session: Session) -> Agent:
    return assemble_agent(root, config, backend, session=session, cursor=args.cursor)


def assemble_agent(
    root: Path,
    config: AsiConfig,
    backend: Any,
    *,
    session: Session | None = None,
    cursor: str | None = None,
    interactive: bool | None = None,
) -> Agent:
    """The agent of one run in `root`, as `asi-agent run` builds it (also used by `asi-agent eval`).

    `session` None starts a new one; `interactive` None means "whoever is at the terminal can answer",
    False makes every ask a refusal.
    """
    state = root / ".asi"
    policy = load_policy(config.policy, root)
    registry, problems = build_registry(root, user_config_dir(), locale=config.tool_locale)
    for problem in problems:
        print(f"asi-agent: warning: {problem}", file=sys.stderr)
    journal = Journal(state)
    recovered = journal.recover()  # settle what a killed run left half-done before anything reads the project
    if session is None:
        session = SessionStore(state).create(cwd=str(root), settings=_settings(config, backend))
    ctx = ToolContext(
        root,
        journal,
        session_id=session.id,
        read_max_bytes=config.read_max_bytes,
        allowed_dirs=tuple(folder.resolve() for folder in policy.allowed_folders()),
        edit_guard=config.edit_guard,
    )
    if cursor:
        ctx.cursor = _cursor(root, cursor)
    ctx.model = BackendModel(backend)
    ctx.state[REGISTRY_KEY] = registry  # moss_register_plugin_tool makes new tools callable at once
    if config.local.grounding and provider_of(backend) == "local":
        from asi_agent.grounding import attach_grounding  # noqa: PLC0415 - only the local model's turns

        attach_grounding(backend, ctx, registry)
    gate = GateConfig(
        approval=config.approval or policy.mode or "ask",
        policy=policy,
        interactive=sys.stdin.isatty() and sys.stderr.isatty() if interactive is None else interactive,
    )
    agent_config = AgentConfig(
        max_turns=config.max_turns,
        tool_mode=config.tool_mode,
        call_format=config.call_format,
        gate=gate,
        locale=config.tool_locale,
        offered=offered_tools(config, backend),
        context=ContextConfig(window=config.context_window),
    )
    instructions, system = _prompt(root, settled=recovered == RecoveryReport())
    session.append("instructions", files=[item.name for item in instructions])
    return Agent(backend, ToolRunner(registry, ctx), session, system, agent_config)


def _prompt(root: Path, *, settled: bool) -> ProjectPrompt:
    """The system prompt; in `run`, the one made at start-up for the request sent ahead (made again when
    the journal's recovery changed the project since, `settled` False), which the recording cuts out."""
    first = prefetch.current()
    made = first.prompt_for(root, user_config_dir(), again=not settled) if first is not None else None
    return made or project_prompt(root, user_config_dir())


def _cursor(root: Path, value: str) -> Cursor:
    match = CURSOR_RE.match(value)
    if not match:
        raise UserError(f"--cursor {value}: expected PATH:LINE or PATH:LINE:COL")
    return Cursor((root / match["path"]).resolve(), int(match["line"]), int(match["col"] or 1))


async def drive(agent: Agent, task: str, renderer: Renderer) -> RunFinished:
    """Run the agent to its end with no progress line and no time limit (what `asi-agent eval` needs)."""
    progress = ProgressLine(sys.stderr, enabled=False)
    return await _drive(agent, task, renderer, RunWatch(agent), progress, timeout=None)


async def _drive(
    agent: Agent,
    task: str,
    renderer: Renderer,
    watch: RunWatch,
    progress: ProgressLine,
    *,
    timeout: float | None,
    close: bool = True,
) -> RunFinished:
    """Run the agent to its end; the session's tools (and, if `close`, the backend) are closed however
    it ends."""

    async def handle(event: AgentEvent) -> None:
        progress.show(event)
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(await ask_in_terminal(event))
        with progress.cleared():
            renderer.show(event)

    abandon_threads_at_exit()
    try:
        ctx = agent.runner.ctx
        problems = await attach_mcp_servers(agent.runner.registry, ctx, user_dir=user_config_dir())
        with progress.cleared():
            for problem in problems:
                print(f"asi-agent: warning: {problem}", file=sys.stderr)
        return await watch.drive(task, handle, timeout=timeout)
    finally:
        progress.set(None)
        await agent.runner.ctx.aclose()
        if close:
            await agent.backend.aclose()
