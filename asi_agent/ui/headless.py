"""`asi-agent run` and `asi-agent resume`: one task, no screen, an exit code that says how it ended."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import Any

from asi_agent.agent import Agent, AgentConfig
from asi_agent.config import AsiConfig, load_config, user_config_dir
from asi_agent.context import ContextConfig
from asi_agent.events import ApprovalRequested, RunFinished
from asi_agent.exceptions import UserError
from asi_agent.gate import GateConfig
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.policy import load_policy
from asi_agent.prompts import system_prompt
from asi_agent.providers import create_backend, offered_tools
from asi_agent.session import SessionStore
from asi_agent.toolrun import BackendModel, ToolRunner
from asi_agent.tools.base import Cursor, ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.registry import REGISTRY_KEY
from asi_agent.ui.confirm import ask_in_terminal
from asi_agent.ui.gitrun import attach_git, finish_git
from asi_agent.ui.output import Renderer, make_renderer

__all__ = ["EXIT_CODES", "assemble_agent", "drive", "run_command"]

EXIT_CODES = {"DONE": 0, "ERROR": 1, "STOP": 2, "MAX_TURNS": 3}
CURSOR_RE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")


def run_command(args: argparse.Namespace) -> int:
    """Run (or resume) one task and return the exit code of DESIGN.md."""
    root = Path(args.cwd).expanduser().resolve()
    if not root.is_dir():
        raise UserError(f"--cwd {args.cwd}: not a directory")
    task = _task(args)
    config = load_config(root, _flags(args))

    backend = create_backend(config)
    agent = _agent(root, config, backend, args)
    allow_dirty = bool(getattr(args, "allow_dirty", False))
    git = attach_git(agent, root, task, auto_commit=config.auto_commit, allow_dirty=allow_dirty)
    renderer = make_renderer(args.output_format)
    end = asyncio.run(drive(agent, task, renderer))
    finish_git(git, end, auto_commit=config.auto_commit, model=backend.model_name)
    return EXIT_CODES[end.status]


def _task(args: argparse.Namespace) -> str:
    if args.command == "resume":
        args.resume = args.session_id
        return args.task or "Continue the task where you left off."
    task: str = sys.stdin.read() if args.task == "-" else args.task
    if not task.strip():
        raise UserError("the task is empty: pass it as an argument or on standard input with '-'")
    return task.strip()


def _flags(args: argparse.Namespace) -> dict[str, Any]:
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
    }


def _agent(root: Path, config: AsiConfig, backend: Any, args: argparse.Namespace) -> Agent:
    return assemble_agent(root, config, backend, resume=args.resume, cursor=args.cursor)


def assemble_agent(
    root: Path,
    config: AsiConfig,
    backend: Any,
    *,
    resume: str | None = None,
    cursor: str | None = None,
    interactive: bool | None = None,
) -> Agent:
    """The agent of one run in `root`, as `asi-agent run` builds it (also used by `asi-agent eval`).

    `interactive` None means "whoever is at the terminal can answer"; False makes every ask a refusal.
    """
    state = root / ".asi"
    policy = load_policy(config.policy, root)
    registry, problems = build_registry(root, user_config_dir(), locale=config.tool_locale)
    for problem in problems:
        print(f"asi-agent: warning: {problem}", file=sys.stderr)
    journal = Journal(state)
    journal.recover()  # settle what a killed run left half-done before anything reads the project
    store = SessionStore(state)
    session = store.open(resume) if resume else store.create(cwd=str(root))
    ctx = ToolContext(
        root,
        journal,
        session_id=session.id,
        read_max_bytes=config.read_max_bytes,
        allowed_dirs=tuple(path.expanduser().resolve() for path in policy.allow_dirs),
    )
    if cursor:
        ctx.cursor = _cursor(root, cursor)
    ctx.model = BackendModel(backend)
    ctx.state[REGISTRY_KEY] = registry  # moss_register_plugin_tool makes new tools callable at once
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
    system = system_prompt(root, user_config_dir())
    return Agent(backend, ToolRunner(registry, ctx), session, system, agent_config)


def _cursor(root: Path, value: str) -> Cursor:
    match = CURSOR_RE.match(value)
    if not match:
        raise UserError(f"--cursor {value}: expected PATH:LINE or PATH:LINE:COL")
    return Cursor((root / match["path"]).resolve(), int(match["line"]), int(match["col"] or 1))


async def drive(agent: Agent, task: str, renderer: Renderer) -> RunFinished:
    """Run the agent to its end; the session's tools and the backend are closed however it ends."""
    try:
        ctx = agent.runner.ctx
        for problem in await attach_mcp_servers(agent.runner.registry, ctx, user_dir=user_config_dir()):
            print(f"asi-agent: warning: {problem}", file=sys.stderr)
        async for event in agent.run(task):
            if isinstance(event, ApprovalRequested):
                event.answer.set_result(await ask_in_terminal(event))
            renderer.show(event)
            if isinstance(event, RunFinished):
                return event
    finally:
        await agent.runner.ctx.aclose()
        await agent.backend.aclose()
    raise AssertionError("the agent ended without RunFinished")
