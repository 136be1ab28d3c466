"""The options that make a read-only command write or run other programs: an allow-listed command keeps
its place on the list only without them (`find -delete`, `sort -o`, `sed -i`, `git branch -D`, `rg --pre` …).

Options are read the way the program reads them, so that no spelling slips past: short options grouped
(`tree -ao FILE` is `tree -a -o FILE`), a value attached (`sort -oFILE`) or after `=` (`--output=FILE`),
and long options abbreviated (GNU `getopt_long` and git accept any unambiguous prefix: `sort --out=F`).
An abbreviation is taken for a writing option whenever it could be one (an ambiguous one the program
would refuse only asks needlessly). A command whose program runs others by design (`xargs`, `env CMD`) or
reads a script we cannot see (`sed -f`, `awk -f`) counts as writing too.

Redirections and chained commands never reach this point: rules with command prefixes only match a
simple command (see `engine.command_words`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["writing_option"]


@dataclass(frozen=True, slots=True)
class _Options:
    """How one program's options are spelled, and which of them write files or run programs."""

    writes: str = ""
    """Short options that write or run (in any group, with any value attached)."""
    short_values: str = ""
    """Short options taking a value: the rest of the group, else the next word (`-k2`, `-k 2`)."""
    short_optional: str = ""
    """Short options whose value is optional: only the rest of the group (`git diff -U3`)."""
    long_writes: tuple[str, ...] = ()
    """Long options that write or run; any prefix of one counts (abbreviations)."""
    long_values: tuple[str, ...] = ()
    """Long options whose value may be the next word (`--key 2`): that word is no operand."""
    safe: tuple[str, ...] = ()
    """Long options that are prefixes of a writing one but are options of their own (an exact name wins)."""
    next_word: bool = False
    """A short option's value is always the next word, never the rest of the group (`tree`)."""


def writing_option(words: Sequence[str]) -> str | None:
    """The option (or argument) that makes this command write or run other programs, if any."""
    if not words:
        return None
    check = _CHECKS.get(words[0].rsplit("/", 1)[-1])
    return check(words[1:]) if check else None


def _scan(args: Sequence[str], spec: _Options) -> tuple[str | None, list[str]]:
    """Read `args` as the program does: the first writing option (None if there is none), and the
    operands (the words that are neither options nor their values)."""
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands += args[index:]
            break
        if arg.startswith("--"):
            name, attached, _ = arg[2:].partition("=")
            if _abbreviates(name, spec):
                return arg, operands
            index += _values(args[index:], int(not attached and name in spec.long_values))
        elif arg.startswith("-") and len(arg) > 1:
            writing, taken = _short_group(arg[1:], spec)
            if writing:
                return arg, operands
            index += _values(args[index:], taken)
        else:
            operands.append(arg)
    return None, operands


def _values(following: Sequence[str], count: int) -> int:
    """How many of the `following` words are the `count` values an option takes. A word that starts
    with `-` is read as an option all the same: a program that took it as a value did not write."""
    taken = 0
    while taken < min(count, len(following)) and not following[taken].startswith("-"):
        taken += 1
    return taken


def _short_group(group: str, spec: _Options) -> tuple[bool, int]:
    """Whether a group of short options holds a writing one, and how many next words are values."""
    taken = 0
    for position, letter in enumerate(group):
        if letter in spec.writes:
            return True, 0
        if letter in spec.short_optional:
            return False, 0  # the rest of the group, if any, is the value
        if letter in spec.short_values:
            if spec.next_word:
                taken += 1  # each one takes the next word in turn
                continue
            return False, int(position == len(group) - 1)  # the rest of the group is the value
    return False, taken


def _abbreviates(name: str, spec: _Options) -> bool:
    """Whether `--name` is, or may abbreviate, a writing long option."""
    if not name or name in spec.safe:
        return False
    return any(option.startswith(name) for option in spec.long_writes)


def _checked(spec: _Options) -> Callable[[Sequence[str]], str | None]:
    return lambda args: _scan(args, spec)[0]


_TREE = _Options(writes="oR", short_values="LPIHT", long_writes=("output",), next_word=True,
                 long_values=("charset", "filelimit", "timefmt", "sort", "hintro", "houtro", "scheme",
                              "authority", "fromfile", "gitfile", "infofile"))  # fmt: skip
_SORT = _Options(
    writes="oT", short_values="ktS", long_writes=("output", "compress-program", "temporary-directory"),
    long_values=("key", "field-separator", "buffer-size", "batch-size", "parallel", "files0-from",
                 "random-source", "sort"),
)  # fmt: skip
_RG = _Options(
    writes="z", short_values="eEfgtTmABCjMrd",
    long_writes=("pre", "hostname-bin", "search-zip"), safe=("pre-glob",),
    long_values=("regexp", "file", "glob", "iglob", "type", "type-not", "max-count", "after-context",
                 "before-context", "context", "threads", "max-columns", "replace", "encoding", "max-depth",
                 "pre-glob", "type-add", "sort", "sortr", "colors", "engine", "path-separator"),
)  # fmt: skip
_LESS = _Options(
    writes="oOk", short_values="bhjpPtTxyz#",
    long_writes=("log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content"),
)  # fmt: skip
_MAN = _Options(
    writes="PH", short_values="CMSemLrEpRT", long_writes=("pager", "html", "preprocessor", "config-file"),
    long_values=("sections", "manpath", "extension", "locale", "prompt", "encoding", "systems"),
)  # fmt: skip
_UNIQ = _Options(short_values="fsw", long_values=("skip-fields", "skip-chars", "check-chars"))
_AWK = _Options(writes="fEilopdW", short_values="vF",
                long_writes=("file", "exec", "include", "load", "pretty-print", "profile", "dump-variables",
                             "source"),
                long_values=("assign", "field-separator"))  # fmt: skip
_SED = _Options(writes="if", short_values="el", long_writes=("in-place", "file"),
                long_values=("expression", "line-length"))  # fmt: skip
# `w FILE`, `W FILE` and `e CMD` as commands (a lone letter), and the `w`/`e` flags of `s///`.
_SED_WRITES = re.compile(r"(?<![A-Za-z_])[wWe](?:\s|$|;|})|/[gpIiMm0-9]*[we](?:\s|;|$|})")
_FIND = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls")


def _sed(args: Sequence[str]) -> str | None:
    """`sed`'s options, then every word that may be a script (what follows `-e`, or the first operand)
    for a command that writes or runs: a file name that looks like one only asks needlessly."""
    found = _scan(args, _SED)[0]
    if found:
        return found
    return next((script for script in _sed_scripts(args) if _SED_WRITES.search(script)), None)


def _sed_scripts(args: Sequence[str]) -> list[str]:
    """The words of a sed command line that may be scripts: the operands, and what is attached to `-e`
    (`-es/a/b/`, `-nes/a/b/`) or to `--expression=`."""
    found = []
    for arg in args:
        if not arg.startswith("-"):
            found.append(arg)
        elif arg.startswith("--"):
            found.append(arg.partition("=")[2])
        elif "e" in arg[1:]:
            found.append(arg[1:].partition("e")[2])
    return [script for script in found if script]


def _awk(args: Sequence[str]) -> str | None:
    found, operands = _scan(args, _AWK)
    if found:
        return found
    program = operands[0] if operands else ""
    return program if re.search(r"system|\||>|getline", program) else None


def _find(args: Sequence[str]) -> str | None:
    return next((arg for arg in args if arg in _FIND), None)


def _env(args: Sequence[str]) -> str | None:
    """`env` prints the environment; given a command (or `-S`), it runs it."""
    skip = False
    for arg in args:
        name = arg.split("=", 1)[0]
        if skip or arg in ("-u", "-C", "--unset", "--chdir"):
            skip = not skip and arg in ("-u", "-C", "--unset", "--chdir")
            continue
        if (arg.startswith("-S") or (len(name) > 2 and "--split-string".startswith(name))) and arg != "-":
            return arg
        if not (arg.startswith("-") or "=" in arg):
            return f"{arg} (env runs it)"
    return None


def _less(args: Sequence[str]) -> str | None:
    """`less` and `more`: their options, and `+cmd` (a start-up command may be a shell escape)."""
    command = next((a for a in args if a.startswith("+") and len(a) > 1), None)
    return command or _scan(args, _LESS)[0]


def _uniq(args: Sequence[str]) -> str | None:
    operands = _scan(args, _UNIQ)[1]
    return f"{operands[1]} (uniq writes its second file)" if len(operands) > 1 else None


_GIT_OUTPUT = _Options(
    writes="o", short_values="nSGLO", short_optional="UMCBl",
    long_writes=("output", "output-directory", "ext-diff", "textconv"), safe=("text",),
    long_values=("max-count", "skip", "since", "until", "author", "committer", "grep"),
)  # fmt: skip
_GIT_SHOWS = ("diff", "log", "show", "format-patch", "whatchanged", "range-diff", "diff-tree", "shortlog")
_GIT_GLOBAL_VALUES = ("-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix")
_GIT_GLOBAL_RUNS = ("-c", "--config-env", "--exec-path")
_BRANCH = _Options(
    writes="dDmMcCfut", short_values="",
    long_writes=("delete", "move", "copy", "force", "set-upstream", "set-upstream-to", "unset-upstream",
                 "edit-description", "track", "no-track", "create-reflog", "recurse-submodules"),
    long_values=("contains", "no-contains", "merged", "no-merged", "points-at", "format", "sort", "column"),
)  # fmt: skip
_BRANCH_LISTS = re.compile(r"^-[a-zA-Z]*[alrv]|^--(?:list|all|remotes|contains|no-contains|merged|no-merged|"
                           r"points-at|show-current|format|sort|column|verbose)")  # fmt: skip


def _git_global(args: Sequence[str]) -> tuple[str | None, int]:
    """git's own options before the subcommand: the one that runs something, else where the subcommand is."""
    index = 0
    while index < len(args) and args[index].startswith("-"):
        arg = args[index]
        if (
            arg in _GIT_GLOBAL_RUNS
            or arg.startswith(tuple(f"{o}=" for o in _GIT_GLOBAL_RUNS))
            or (arg.startswith("-c") and not arg.startswith("--"))
        ):
            return arg, index  # a configuration value can name a pager, an editor, an external diff …
        if arg in ("-p", "--paginate") or ("--paginate".startswith(arg) and len(arg) > 3):
            return arg, index
        index += 2 if arg in _GIT_GLOBAL_VALUES else 1
    return None, index


def _git(args: Sequence[str]) -> str | None:
    found, index = _git_global(args)
    if found:
        return found
    sub, rest = (args[index], args[index + 1 :]) if index < len(args) else ("", [])
    if sub in _GIT_SHOWS:
        return _scan(rest, _GIT_OUTPUT)[0]
    if sub == "grep":
        return next((a for a in rest if a.startswith(("-O", "--open-files-in-pager", "--op"))), None)
    if sub == "branch":
        found, names = _scan(rest, _BRANCH)
        listing = any(_BRANCH_LISTS.match(a) for a in rest)
        return found or (f"{names[0]} (creates a branch)" if names and not listing else None)
    if sub == "stash":
        verbs = [a for a in rest if not a.startswith("-")]
        return None if verbs[:1] in ([], ["list"], ["show"]) else verbs[0]
    return None


_CHECKS: dict[str, Callable[[Sequence[str]], str | None]] = {
    "find": _find,
    "rg": _checked(_RG),
    "tree": _checked(_TREE),
    "sort": _checked(_SORT),
    "sed": _sed,
    "git": _git,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "tee": lambda args: "tee writes files" if _scan(args, _Options())[1] else None,
    "uniq": _uniq,
    "env": _env,
    "xargs": lambda args: "xargs runs commands",
    "less": _less,
    "more": _less,
    "man": _checked(_MAN),
    "tail": lambda args: None,
    "head": lambda args: None,
}
