"""The options that make a read-only command write: an allow-listed command keeps its place on the
list only without them (`find -delete`, `sort -o`, `sed -i`, `git branch -D`, `rg --pre` …).

Redirections and chained commands never reach this point: rules with command prefixes only match a
simple command (see `engine.command_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

__all__ = ["writing_option"]

_FIND = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls")
_GIT_OUTPUT = ("diff", "log", "show", "format-patch", "whatchanged", "range-diff")
_BRANCH_WRITES = re.compile(
    r"^-[a-zA-Z]*[dDmMcCfut]|^--(?:delete|move|copy|force|set-upstream|unset-upstream|edit-description|track|no-track)"
)
_BRANCH_LISTS = re.compile(
    r"^-[a-zA-Z]*[alrv]|^--(?:list|all|remotes|contains|no-contains|merged|no-merged|points-at|show-current|format|sort|column|verbose)"
)


def writing_option(words: Sequence[str]) -> str | None:
    """The option (or argument) that makes this command write or run other programs, if any."""
    if not words:
        return None
    check = _CHECKS.get(words[0].rsplit("/", 1)[-1])
    return check(words[1:]) if check else None


def _first(args: Sequence[str], *options: str, attached: bool = False) -> str | None:
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in options or (attached and any(arg.startswith(o) and len(arg) > len(o) for o in options)):
            return arg
    return None


def _git(args: Sequence[str]) -> str | None:
    sub = next((a for a in args if not a.startswith("-")), "")
    if sub in _GIT_OUTPUT:
        return _first(args, "--output", "--ext-diff", "--textconv", "-o")
    if sub == "branch":
        rest = args[args.index("branch") + 1 :]
        flag = next((a for a in rest if _BRANCH_WRITES.match(a)), None)
        if flag:
            return flag
        listing = any(_BRANCH_LISTS.match(a) for a in rest)
        names = [a for a in rest if not a.startswith("-")]
        return f"{names[0]} (creates a branch)" if names and not listing else None
    if sub == "stash":
        verbs = [a for a in args[args.index("stash") + 1 :] if not a.startswith("-")]
        return None if verbs[:1] in ([], ["list"], ["show"]) else verbs[0]
    return None


def _sed(args: Sequence[str]) -> str | None:
    for arg in args:
        if arg.startswith("--in-place") or (re.match(r"^-[a-zA-Z]*i", arg) and not arg.startswith("--")):
            return arg
    script = " ".join(a for a in args if not a.startswith("-"))
    return (
        "w or e commands in the script"
        if re.search(r"(?:^|[;/}\s])(?:w|e)\s+\S|/[gpI0-9]*[we](?:\s|$|;)", script)
        else None
    )


_CHECKS: dict[str, Callable[[Sequence[str]], str | None]] = {
    "find": lambda args: _first(args, *_FIND),
    "rg": lambda args: _first(args, "--pre", "--hostname-bin", "--search-zip", "-z"),
    "tree": lambda args: _first(args, "-o", "--output", "-R"),
    "sort": lambda args: _first(args, "-o", "--output", attached=True),
    "sed": _sed,
    "git": _git,
    "awk": lambda args: next((a for a in args if re.search(r"system|\||>|getline", a)), None),
    "tee": lambda args: "tee writes files" if args else None,
    "uniq": lambda args: args[1] if len([a for a in args if not a.startswith("-")]) > 1 else None,
    "tail": lambda args: None,
    "head": lambda args: None,
}
