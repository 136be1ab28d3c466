"""`asi-agent run` and `asi-agent resume`: one task, no screen, an exit code that says how it ended.

The agent is built and driven by `asi_agent.assembly`; this front end adds the person's side: the
progress line, the renderer, questions asked in the terminal, git checkpoints and the exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from asi_agent.agent import Agent
from asi_agent.assembly import assemble_agent, broad_root, drive, stderr_warning, trust_notice
from asi_agent.bounds import RunWatch
from asi_agent.commands import Expansion, narrowed, slash_command
from asi_agent.config import AsiConfig, user_config_dir
from asi_agent.events import AgentEvent, ApprovalRequested, RunFinished, progress_sink, report_progress
from asi_agent.exceptions import UserError
from asi_agent.handoff import PLAN_NOTE
from asi_agent.providers import create_backend
from asi_agent.runsettings import config_flags, resumed_config, session_settings, trusted_flag
from asi_agent.session import SessionStore
from asi_agent.threads import leave
from asi_agent.ui.cli import EXIT_INTERRUPTED, project_root
from asi_agent.ui.confirm import ask_in_terminal
from asi_agent.ui.gitrun import attach_git, finish_git
from asi_agent.ui.mentions import with_images
from asi_agent.ui.output import Renderer, make_renderer
from asi_agent.ui.progress import ProgressLine, wants_progress

__all__ = ["EXIT_CODES", "run_command"]

EXIT_CODES = {"DONE": 0, "ERROR": 1, "STOP": 2, "MAX_TURNS": 3, "TIMEOUT": 4}


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
    config = resumed_config(root, config_flags(args), resumed, trusted=trusted_flag(args))
    command = slash_command(task, root, user_config_dir())
    if command is not None:
        task = command.prompt
        _command_model(command, config, given=args.model is not None)
    report_progress("preparing the model", config.provider or "detecting the provider")
    backend = create_backend(config)
    session = resumed or store.create(cwd=str(root), settings=session_settings(config, backend))
    interactive = sys.stdin.isatty() and sys.stderr.isatty()  # whoever is at the terminal can answer
    agent = assemble_agent(
        root,
        config,
        backend,
        session=session,
        cursor=args.cursor,
        interactive=interactive,
        announce=_announce,
    )
    renderer.summary.tool_state = agent.runner.ctx.state  # counts kept by the tools (corrected edits)
    if agent.gate.config.approval == "plan":  # research and write the plan; the person runs it later
        # In the system prompt, after the project's part: the task stays as given (a first request
        # recorded for sending ahead cuts both out, `prefetch`).
        agent.system, renderer.plan_mode = f"{agent.system}\n\n{PLAN_NOTE}", True
    if command is not None and command.allowed_tools is not None:
        agent.runner.registry = narrowed(agent.runner.registry, command.allowed_tools)
    if (notice := trust_notice(root, config)) is not None:
        stderr_warning(notice)
    if (broad := broad_root(root)) is not None:
        stderr_warning(broad)
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


def _command_model(command: Expansion, config: AsiConfig, *, given: bool) -> None:
    """A command's `model` is used when no `--model` was given, unless an untrusted folder supplied it."""
    model = command.command.model
    if model is None or given:
        return
    if command.command.project and not config.trust.trusted:
        config.trust.ignored.append(f"{command.command.path.name}: model = {model!r}")
        return
    config.model = model


def _announce(line: str) -> None:
    """`run`'s first line on standard error: which sandbox the commands run in."""
    print(f"asi-agent: {line}", file=sys.stderr)


def _task(args: argparse.Namespace) -> str:
    if args.command == "resume":
        args.resume = args.session_id
        return args.task or "Continue the task where you left off."
    task: str = sys.stdin.read() if args.task == "-" else args.task
    if not task.strip():
        raise UserError("the task is empty: pass it as an argument or on standard input with '-'")
    return task.strip()


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
    """`assembly.drive` with the progress line, the renderer and the questions asked in the terminal."""

    async def handle(event: AgentEvent) -> None:
        progress.show(event)
        if isinstance(event, ApprovalRequested):
            event.answer.set_result(await ask_in_terminal(event))
        with progress.cleared():
            renderer.show(event)
        if isinstance(event, RunFinished) and agent.config.hooks is not None:
            await agent.config.hooks.run_ended(event)  # before SessionEnd, which closing the run fires

    def warn(problem: str) -> None:
        with progress.cleared():
            stderr_warning(problem)

    def ended() -> None:
        progress.set(None)

    task = await with_images(agent, agent.runner.ctx.root, task)  # `@shot.png`, a pasted image path
    return await drive(agent, task, handle, watch=watch, timeout=timeout, close=close, warn=warn, ended=ended)
