"""From configuration to a running agent, the same for every front end (`run`, the chats, `eval`).

The configuration (made from the flags by `asi_agent.runsettings`), then the backend's choice, the
tool registry (built-in tools and plugins), the policy and the gate, the session, the agent; and the
drive loop that runs it to its `RunFinished`. Nothing here talks to a person: events go to the front
end's handler, and problems to its `warn` callback.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asi_agent import prefetch
from asi_agent.agent import Agent, AgentConfig, PlannerFor
from asi_agent.backends.base import Backend
from asi_agent.bounds import EventHandler, RunWatch
from asi_agent.config import (
    APPROVAL_ORDER,
    SANDBOX_PROTECTED,
    Approval,
    AsiConfig,
    load_config,
    user_config_dir,
)  # fmt: skip
from asi_agent.context import ContextConfig
from asi_agent.events import RunFinished
from asi_agent.exceptions import UserError
from asi_agent.gate import GateConfig
from asi_agent.modelturn import TurnPlanner
from asi_agent.plugins import attach_mcp_servers, build_registry
from asi_agent.plugins.loader import project_supplies
from asi_agent.plugins.mcp import MCP_KEY, McpHub
from asi_agent.policy import Policy, Rule, load_policy
from asi_agent.policy.model import narrowed
from asi_agent.prompts import ProjectPrompt, project_prompt, with_language
from asi_agent.providers import create_backend, offered_tools, provider_of
from asi_agent.runsettings import read_chat_template, session_settings
from asi_agent.sandbox import Limits, Sandbox, find_bwrap, sandbox_for, unavailable_cached
from asi_agent.session import Session, SessionStore
from asi_agent.subagents.wiring import extend
from asi_agent.threads import abandon_threads_at_exit
from asi_agent.toolrun import BackendModel, ToolRunner
from asi_agent.tools.base import Cursor, ToolContext
from asi_agent.tools.exec.summary import SUMMARY_KEY
from asi_agent.tools.files.correct import CORRECT_KEY
from asi_agent.tools.files.journal import Journal, RecoveryReport
from asi_agent.tools.registry import REGISTRY_KEY, ToolRegistry
from asi_agent.tools.web import WEB_KEY
from asi_agent.trust import untrusted_notice
from asi_agent.userdirs import user_cache_dir
from asi_agent.verify import VerifyConfig

__all__ = [
    "TRUSTED_KEY", "Warn", "assemble_agent", "attach_servers", "broad_root", "contain", "drive",
    "read_chat_template", "stderr_warning", "trust_notice", "untrusted_changes",
]  # fmt: skip

Warn = Callable[[str], None]
"""Where a problem goes that does not stop the run (a plugin manifest's, an MCP server's)."""
CURSOR_RE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
TRUSTED_KEY = "asi_agent.trusted"
"""The `ctx.state` key that says whether the session trusts its project folder (its MCP servers start)."""


def stderr_warning(problem: str) -> None:
    """The default `Warn`: an `asi-agent: warning:` line on standard error, as the command line shows them."""
    print(f"asi-agent: warning: {problem}", file=sys.stderr)


# -- the agent --------------------------------------------------------------------------------------


def assemble_agent(
    root: Path,
    config: AsiConfig,
    backend: Any,
    *,
    interactive: bool,
    session: Session | None = None,
    cursor: str | None = None,
    warn: Warn = stderr_warning,
    announce: Callable[[str], None] | None = None,
    skills: bool = True,
) -> Agent:
    """The agent of one run in `root`: the one every front end (`run`, the chats, `eval`) builds.

    `interactive`: whether somebody can answer a question (False makes every ask a refusal); `session`
    None starts a new one; `cursor` is `PATH:LINE[:COL]`; `warn` gets the plugin manifests' problems;
    `announce` gets the line saying which sandbox the commands run in, before anything else is said;
    `skills` False leaves the skills out (evaluation runs offer the same tools whoever runs them).
    """
    state = root / ".asi"
    policy, approval = _policy_and_mode(root, config)
    sandbox, sandbox_note = contain(root, config, policy, approval)
    if announce is not None:
        announce(sandbox_note)
    trusted = config.trust.trusted
    registry = _registry(root, config, warn)
    found = _skills(root, config, registry, trusted=trusted, warn=warn) if skills else None
    journal = Journal(state)
    recovered = journal.recover()  # settle what a killed run left half-done before anything reads the project
    if session is None:
        session = SessionStore(state).create(cwd=str(root), settings=session_settings(config, backend))
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
    ctx.state[WEB_KEY] = config.web
    # The embedded model is too small to help its tools; a scripted one plays only the replies it was given.
    helps = not getattr(backend, "embedded", False) and provider_of(backend) != "scripted"
    ctx.state[CORRECT_KEY] = helps if config.edit_correction is None else config.edit_correction
    ctx.state[SUMMARY_KEY] = helps if config.output_summary is None else config.output_summary
    ctx.state[TRUSTED_KEY] = trusted
    if found is not None:
        from asi_agent.skills.build import skill_folders  # noqa: PLC0415
        from asi_agent.skills.session import SKILLS_KEY  # noqa: PLC0415

        ctx.state[SKILLS_KEY] = found
        ctx.readable_dirs = skill_folders(found)
    if trusted:  # moss_register_plugin_tool makes new tools callable at once (an untrusted folder's: never)
        ctx.state[REGISTRY_KEY] = registry
    ctx.sandbox, ctx.sandbox_note = sandbox, sandbox_note
    if sandbox is not None:  # the first cleanup, so the last to run: after the processes it contains ended
        ctx.cleanups.append(sandbox.release)
    gate = GateConfig(approval=approval, policy=policy, interactive=interactive)
    agent_config = AgentConfig(
        max_turns=config.max_turns,
        tool_mode=config.tool_mode,
        call_format=config.call_format,
        chat_template=read_chat_template(config.chat_template, root),
        gate=gate,
        locale=config.tool_locale,
        offered=offered_tools(config, backend),
        context=ContextConfig(window=config.context_window),
        verify=VerifyConfig(config.verify, config.test_command),
    )
    instructions, system = _prompt(root, settled=recovered == RecoveryReport())
    system = with_language(system, config.tool_locale)
    session.append("instructions", files=[item.name for item in instructions])
    planner = _planner(ctx, registry) if config.local.grounding else None
    agent = Agent(backend, ToolRunner(registry, ctx), session, system, agent_config, planner=planner)
    extend(
        agent, user_config_dir(), config.trust, warn=warn,
        depth=config.subagent_depth if config.tools != "asi" else 0,  # `asi`: exactly the spec's tools
        backend_for=lambda model: create_backend(config.model_copy(update={"model": model})),
    )  # fmt: skip
    return agent


def _planner(ctx: ToolContext, registry: ToolRegistry) -> PlannerFor:
    """Grounding for whichever backend asks for it, now or after `/model` switches models."""

    def planner_for(backend: Backend) -> TurnPlanner | None:
        if not backend.wants_planner:
            return None
        from asi_agent.grounding import planner_for as grounding  # noqa: PLC0415 - only guided models' runs

        return grounding(backend, ctx, registry)

    return planner_for


def _registry(root: Path, config: AsiConfig, warn: Warn) -> ToolRegistry:
    """The tools: built-in, the user's and (in a trusted folder) the project's manifest, installed plugins."""
    trusted = config.trust.trusted
    if not trusted:
        config.trust.ignored.extend(project_supplies(root))
    registry, problems = build_registry(
        root,
        user_config_dir(),
        trusted=trusted,
        locale=config.tool_locale,
        disabled_plugins=config.disabled_plugins,
        extensions=config.tools != "asi",
    )
    for problem in problems:
        warn(str(problem))
    return registry


def _skills(root: Path, config: AsiConfig, registry: ToolRegistry, *, trusted: bool, warn: Warn) -> Any:
    """The run's `SkillSession` (and `execute_skill` registered), or None when no skill is found."""
    from asi_agent.skills.build import skill_session  # noqa: PLC0415 - reads folders, not at start-up
    from asi_agent.tools.catalog import extension_spec  # noqa: PLC0415

    skills = skill_session(root, config, trusted=trusted, warn=warn)
    if skills is not None and config.tools != "asi" and "execute_skill" not in registry:
        registry.register(extension_spec("execute_skill"))
    return skills


def _policy_and_mode(root: Path, config: AsiConfig) -> tuple[Policy, Approval]:
    """The policy and the approval mode: the user's, narrowed by what an untrusted folder's config asks
    for (its policy's deny and ask rules, a stricter mode); what it asked for in vain goes to the ignored."""
    trust = config.trust
    policy = load_policy(config.policy, root)
    if trust.policy is not None:
        policy, left = narrowed(policy, load_policy(trust.policy, root), trust.policy)
        trust.ignored.extend(left)
    approval: Approval = config.approval or policy.mode or "ask"
    if trust.approval is not None:
        if APPROVAL_ORDER.index(trust.approval) < APPROVAL_ORDER.index(approval):  # stricter: it narrows
            approval = APPROVAL_ORDER[APPROVAL_ORDER.index(trust.approval)]
        elif trust.approval != approval:
            trust.ignored.append(f".asi/config.toml: approval = {trust.approval!r}")
    if config.sandbox.network or policy.network:  # the person opened the network: the web tools use it too
        reason = "the network is allowed for this run (--allow-network, network = true)"
        web = Rule(tool="web_*", risk="network", action="allow", reason=reason)
        policy = policy.model_copy(update={"rules": [*policy.rules, web]})
    return policy, approval


def trust_notice(root: Path, config: AsiConfig) -> str | None:
    """The one message a front end shows when an untrusted folder supplied what was ignored (after
    `assemble_agent`, which completes the list); None when nothing was."""
    ignored = config.trust.ignored
    return untrusted_notice(root, ignored) if ignored and not config.trust.trusted else None


def untrusted_changes(root: Path, flags: dict[str, Any]) -> list[str]:
    """What the folder would change if it were trusted (its settings, policy, plugins, MCP servers), one
    phrase each, read without running anything: what the chat shows when it asks whether to trust it."""
    config = load_config(root, flags, trusted=False)
    _policy_and_mode(root, config)
    return [*config.trust.ignored, *project_supplies(root)]


def broad_root(root: Path) -> str | None:
    """A warning when the project folder is the home folder or the file system's root (`--cwd ~` by
    mistake): the agent may read and change everything below it, and its state goes there."""
    if root == Path.home().resolve():
        what = "your home folder"
    elif root == Path(root.anchor):
        what = "the file system's root"
    else:
        return None
    return (
        f"{root} is {what}, not a project: the agent may read and change everything below it and keeps its "
        f"state in {root / '.asi'}; run it in a project folder (--cwd PROJECT) instead"
    )


def contain(root: Path, config: AsiConfig, policy: Policy, approval: str) -> tuple[Sandbox | None, str]:
    """The sandbox of the run's commands, and the line that says which one is in force (or why none).

    Where none can start, yolo refuses to start (it runs commands without asking only because they are
    contained) unless the person turned the sandbox off explicitly.
    """
    section = config.sandbox
    if not section.enabled:
        who = config.trust.sandbox_off or "--no-sandbox"
        if who == "--no-sandbox":
            return None, "no sandbox (--no-sandbox): commands run as you, gated by the policy only"
        return None, f"sandbox off ({who}): commands run as you, gated by the policy only"
    binary = find_bwrap()
    reason = unavailable_cached(binary, user_cache_dir() / "sandbox-probe.json")
    if reason is not None:
        if approval == "yolo":
            raise UserError(
                "yolo runs commands without asking only inside the sandbox, and none can start here: "
                f"{reason}. Pass --no-sandbox to run yolo without it (explicitly), or use --approval "
                "auto-edit"
            )
        return None, f"no sandbox: {reason}; commands run as you, and ask first"
    assert binary is not None
    sandbox = sandbox_for(
        root,
        binary=binary,
        network=section.network or bool(policy.network),
        writable=section.writable,
        caches=section.caches,
        hidden=section.hidden,
        protected=[name for name in SANDBOX_PROTECTED if name not in section.unprotect],
        env=section.env,
        limits=Limits(**section.limits.model_dump()),
    )
    return sandbox, sandbox.describe()


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


# -- the run ----------------------------------------------------------------------------------------


async def attach_servers(agent: Agent) -> list[str]:
    """Start the MCP servers of the plugin manifests and add their tools; returns the problems found."""
    ctx = agent.runner.ctx
    trusted = ctx.state.get(TRUSTED_KEY) is True
    found = await attach_mcp_servers(agent.runner.registry, ctx, user_dir=user_config_dir(), trusted=trusted)
    hub = ctx.state.get(MCP_KEY)
    if isinstance(hub, McpHub) and (said := hub.instructions()):  # the servers' own word on their use
        agent.system = f"{agent.system}\n\n{said}"
    return [str(problem) for problem in found]


async def drive(
    agent: Agent,
    task: str,
    handle: EventHandler,
    *,
    watch: RunWatch | None = None,
    timeout: float | None = None,
    close: bool = True,
    warn: Warn = stderr_warning,
    ended: Callable[[], None] | None = None,
) -> RunFinished:
    """Run the agent to its end: the MCP servers attached, every event to `handle` (which answers the
    approvals), TIMEOUT after `timeout` seconds; returns the run's `RunFinished`.

    The session's tools (and, if `close`, the backend) are closed however it ends, after `ended` is told.
    `watch` (new when None) is the front end's to report a partial result for an end decided outside
    the loop (an interrupt).
    """
    watch = watch or RunWatch(agent)
    abandon_threads_at_exit()
    try:
        for problem in await attach_servers(agent):
            warn(problem)
        return await watch.drive(task, handle, timeout=timeout)
    finally:
        if ended is not None:
            ended()
        await agent.runner.ctx.aclose()
        if close:
            await agent.backend.aclose()
