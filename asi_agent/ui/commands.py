"""The small subcommands: `tools`, `undo`, `sessions`, `trust`, `untrust`, and `chat`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from asi_agent.exceptions import UserError
from asi_agent.ui.cli import project_root

__all__ = ["chat", "checkpoints", "diff", "sessions", "tools", "trust", "undo", "untrust"]


def tools(args: argparse.Namespace) -> int:
    """List every tool with its source and class (or as JSON); report manifest problems (`--check`)."""
    import asyncio  # noqa: PLC0415 - the subcommands stay cheap to import

    from asi_agent.config import load_config, user_config_dir  # noqa: PLC0415
    from asi_agent.plugins import check_plugins, describe_tools  # noqa: PLC0415
    from asi_agent.tools.schema import tool_schema  # noqa: PLC0415

    root = project_root(args)
    config = load_config(root, trusted=True if args.trust else None)
    trusted = config.trust.trusted
    registry, problems = asyncio.run(
        check_plugins(
            root,
            user_config_dir(),
            trusted=trusted,
            disabled_plugins=config.disabled_plugins,
            extensions=config.tools != "asi",
        )
    )
    if config.tools != "asi" and config.subagent_depth >= 1 and "task" not in registry:
        # `task` is registered by each session (it starts agents like its own); listed with this folder's
        from asi_agent.subagents import find_agents, listed_task_spec  # noqa: PLC0415

        agents, _left_out = find_agents(root, user_config_dir(), trusted=trusted)
        registry.register(listed_task_spec(agents))
    rows = describe_tools(registry)
    if args.json:
        for row in rows:
            row["schema"] = tool_schema(registry.get(row["name"]))
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        for row in rows:
            print(f"{row['name']:<32} {row['risk']:<8} {row['source']}")
    for problem in problems:
        print(f"asi-agent: {'error' if args.check else 'warning'}: {problem}", file=sys.stderr)
    if not trusted and (root / "moss-tools.json").exists():
        print(
            f"asi-agent: note: {root} is not a trusted folder: its moss-tools.json was not loaded "
            f"(`asi-agent trust {root}` trusts it)",
            file=sys.stderr,
        )
    return 1 if args.check and problems else 0


def trust(args: argparse.Namespace) -> int:
    """`trust [PATH]` stores a folder (and those below it) as trusted; `trust --list` lists them."""
    from asi_agent.trust import trust_folder, trusted_folders  # noqa: PLC0415

    if args.list:
        if args.path is not None:
            raise UserError("trust --list takes no PATH: `asi-agent trust --list`")
        folders = trusted_folders()
        if not folders:
            print("no trusted folders yet: `asi-agent trust [PATH]` trusts one")
        for folder in folders:
            print(folder)
        return 0
    folder, added = trust_folder(_folder(args.path))
    print(f"trusted {folder}" if added else f"{folder} was already trusted")
    return 0


def untrust(args: argparse.Namespace) -> int:
    """`untrust [PATH]` removes a folder from the trusted ones (the folders below it with it)."""
    from asi_agent.trust import trusted_by, untrust_folder  # noqa: PLC0415

    # a folder deleted since it was trusted can still be removed from the list
    folder, removed = untrust_folder(Path(os.path.expanduser(args.path or ".")))
    if removed:
        print(f"{folder} is no longer trusted")
        return 0
    parent = trusted_by(folder)
    if parent is not None:
        raise UserError(f"{folder} is trusted because {parent} is; `asi-agent untrust {parent}` removes that")
    print(f"{folder} was not trusted")
    return 0


def _folder(path: str | None) -> Path:
    """The folder `trust`/`untrust` names (default: the current one); UserError when it is none."""
    folder = Path(os.path.expanduser(path or "."))
    if not folder.is_dir():
        raise UserError(f"{path}: not a folder")
    return folder


def undo(args: argparse.Namespace) -> int:
    """Revert the last N journaled changes, newest first."""
    from asi_agent.tools.files.journal import Journal  # noqa: PLC0415

    root = project_root(args)
    reverted = Journal(root / ".asi").undo(root, args.count)
    if not reverted:
        print("nothing to undo")
    for entry in reverted:
        print(f"reverted #{entry.seq} {entry.tool} {entry.path}")
    return 0


def sessions(args: argparse.Namespace) -> int:
    """List the saved sessions of the project, newest first."""
    from asi_agent.session import SessionStore  # noqa: PLC0415

    found = SessionStore(project_root(args) / ".asi").list()
    if not found:
        print("no sessions yet")
    for info in found:
        print(f"{info.id}  {info.started[:19]}  {info.status:<10} {info.task}")
    return 0


def diff(args: argparse.Namespace) -> int:
    """The changes of a session: from its first git checkpoint to now, or from the journal without git."""
    from asi_agent.tools.files.journal import Journal  # noqa: PLC0415
    from asi_agent.vcs.checkpoints import session_diff  # noqa: PLC0415
    from asi_agent.vcs.journal_diff import journal_diff  # noqa: PLC0415
    from asi_agent.vcs.repo import open_repo  # noqa: PLC0415

    root = project_root(args)
    repo = open_repo(root)
    if repo is not None and not _journal_only(repo, args.session):
        first, text = session_diff(repo, args.session, stat=args.stat)
        print(f"changes of session {first.session} since checkpoint {first.id}", file=sys.stderr)
    else:
        session, text = journal_diff(root, Journal(root / ".asi"), args.session)
        print(f"changes of session {session} (from the change journal)", file=sys.stderr)
    sys.stdout.write(text or "no changes\n")
    return 0


def _journal_only(repo: object, session: str | None) -> bool:
    """A repository without any checkpoint (e.g. made after the session): fall back to the journal."""
    from asi_agent.vcs.checkpoints import RESTORES, list_checkpoints  # noqa: PLC0415
    from asi_agent.vcs.repo import GitRepo  # noqa: PLC0415

    assert isinstance(repo, GitRepo)
    own = [c for c in list_checkpoints(repo) if c.session != RESTORES]
    return not any(session is None or c.session.endswith(session) for c in own)


def checkpoints(args: argparse.Namespace) -> int:
    """List the git checkpoints, or restore one (journaled: `asi-agent undo` reverts the restore)."""
    from asi_agent.tools.files.journal import Journal  # noqa: PLC0415
    from asi_agent.vcs.checkpoints import list_checkpoints, restore_checkpoint  # noqa: PLC0415
    from asi_agent.vcs.repo import open_repo  # noqa: PLC0415

    root = project_root(args)
    repo = open_repo(root)
    if repo is None:
        raise UserError(
            f"{root} is not in a git repository (or git is not installed): there are no checkpoints"
        )
    if args.action == "list":
        found = list_checkpoints(repo)
        if not found:
            print("no checkpoints yet: a run saves one before its first change")
        for item in found:
            print(f"{item.id:<32} {item.time[:19]}  {item.commit[:10]}  {item.label}")
        return 0
    if not args.id:
        raise UserError(
            "checkpoints restore needs the ID of a checkpoint; `asi-agent checkpoints` lists them"
        )
    done = restore_checkpoint(repo, args.id, root, Journal(root / ".asi"))
    for kind, path in done.changed:
        print(f"{kind} {path}")
    for path in done.skipped:
        print(f"left alone {path} (outside the project, or a symbolic link)")
    if done.saved is None:
        print(f"the working tree already matches checkpoint {done.checkpoint.id}")
    else:
        saved = done.saved.id
        print(
            f"restored checkpoint {done.checkpoint.id}; the state before is checkpoint {saved} (undo with "
            f"`asi-agent undo {len(done.changed)}` or `asi-agent checkpoints restore {saved}`)"
        )
    return 0


def chat(args: argparse.Namespace) -> int:
    """The full-screen chat, or the line-mode chat with `--plain` or when the terminal cannot show it."""
    if args.plain or not _full_screen_terminal():
        from asi_agent.ui.plain import run_plain  # noqa: PLC0415

        return run_plain(args)
    from asi_agent.ui.tui import run_tui  # noqa: PLC0415

    return run_tui(args)


def _full_screen_terminal() -> bool:
    """Whether stdin and stdout are a terminal that can show the full-screen app."""
    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")
