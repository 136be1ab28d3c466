"""Rules for git: what discards uncommitted work, deletes recovery points or rewrites shared history.

Local destroyers act on the project (their target is `.`); pushes act on the remote, outside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from asi_agent.policy.danger_common import Checker, RuleContext, has_flag, split, subcommands
from asi_agent.policy.danger_paths import Finding, ask, remote

__all__ = ["GIT_RULES"]

_OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
_FORCE_PUSH = frozenset(
    {"--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune"}
)
_REMOTE = remote("the git remote")
_HERE = "."


def _check_git(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    index = 0
    while index < len(args) and args[index].startswith("-"):
        if args[index] == "-c" and index + 1 < len(args) and "=!" in args[index + 1]:
            alias = ctx.script(args[index + 1].split("=!", 1)[1])
            return alias if alias.level != "safe" else ask("git -c defines a shell alias", _HERE)
        index += 2 if args[index] in _OPTIONS_WITH_VALUE else 1
    if index >= len(args):
        return None
    check = _GIT.get(args[index])
    return check(args[index + 1 :]) if check else _GIT_WORDS(args[index:], ctx)


def _clean(args: Sequence[str]) -> Finding | None:
    options, _ = split(args)
    if has_flag(options, "f", "--force") and not has_flag(options, "n", "--dry-run"):
        return ask("git clean -f deletes untracked files", _HERE)
    return None


def _push(args: Sequence[str]) -> Finding | None:
    options, operands = split(args)
    forced = any(o.split("=")[0] in _FORCE_PUSH for o in options) or has_flag(options, "f")
    rewritten = any(len(ref) > 1 and ref[0] in "+:" for ref in operands[1:])
    if forced or rewritten or has_flag(options, "d"):
        return ask("forced push (or remote delete) rewrites history others may depend on", _REMOTE)
    return None


def _checkout(args: Sequence[str]) -> Finding | None:
    paths = "--" in args and args.index("--") < len(args) - 1
    if paths or "." in args or has_flag(split(args)[0], "f", "--force") or "-B" in args:
        return ask("git checkout of paths (or -f, -B) discards uncommitted changes", _HERE)
    return None


def _restore(args: Sequence[str]) -> Finding | None:
    staged_only = ("--staged" in args or "-S" in args) and not ("--worktree" in args or "-W" in args)
    return None if staged_only else ask("git restore discards uncommitted changes", _HERE)


def _reset(args: Sequence[str]) -> Finding | None:
    mode = next((a for a in args if a in ("--hard", "--merge", "--keep")), None)
    return ask(f"git reset {mode} discards uncommitted changes", _HERE) if mode else None


def _branch(args: Sequence[str]) -> Finding | None:
    options, _ = split(args)
    delete = has_flag(options, "d", "--delete")
    if has_flag(options, "D") or (delete and has_flag(options, "f", "--force")):
        return ask("git branch -D deletes a branch even when it is not merged", _HERE)
    if has_flag(options, "M") or has_flag(options, "C") or has_flag(options, "f", "--force"):
        return ask("git branch -f/-M/-C overwrites an existing branch", _HERE)
    return None


def _rm(args: Sequence[str]) -> Finding | None:
    options, operands = split(args)
    if "--cached" in options:
        return None
    if has_flag(options, "r") or has_flag(options, "f", "--force") or "." in operands:
        return ask("git rm -r/-f deletes files from the working tree, uncommitted changes included", _HERE)
    return None


def _gc(args: Sequence[str]) -> Finding | None:
    prune = next((a for a in args if a.startswith("--prune=") and a != "--prune=never"), None)
    return ask(f"git gc {prune} deletes unreachable commits (recovery points)", _HERE) if prune else None


_GIT: dict[str, Callable[[Sequence[str]], Finding | None]] = {
    "clean": _clean,
    "push": _push,
    "checkout": _checkout,
    "restore": _restore,
    "reset": _reset,
    "branch": _branch,
    "rm": _rm,
    "gc": _gc,
}
_GIT_WORDS = subcommands(
    ("switch", "--discard-changes|-f|--force|-C|--force-create", "discards uncommitted changes"),
    ("stash drop", "", "deletes stashed work"),
    ("stash clear", "", "deletes all stashed work"),
    ("reflog expire", "", "deletes recovery points"),
    ("reflog delete", "", "deletes recovery points"),
    ("prune", "", "deletes unreachable commits"),
    ("filter-branch", "", "rewrites the whole history"),
    ("filter-repo", "", "rewrites the whole history"),
    ("update-ref", "-d", "deletes a ref"),
    ("tag", "-d|--delete", "deletes a tag"),
    ("worktree remove", "-f|--force", "deletes a worktree with its changes"),
    ("submodule deinit", "-f|--force|--all", "deletes submodule working trees"),
    ("lfs prune", "", "deletes local copies of large files"),
    target=_HERE,
)

GIT_RULES: dict[str, Checker] = {"git": _check_git}
