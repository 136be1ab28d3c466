"""Wrappers that run another command (`sudo`, `env`, `xargs`, `timeout`, `uv run`, `npx` …): stripped
so that the classifier judges the program they run."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from asi_agent.policy.shell_scan import split_words

__all__ = ["computed_name", "prompt_expansion", "skip_options", "unwrap"]

_PROMPT = re.compile(r"\$\{[^}]*@P\}")
_BRACES = re.compile(r"\{[^{}]*,[^{}]*\}")
_GLOB = re.compile(r"[*?\[]")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_KEYWORDS = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "--"}
)
_ELEVATORS = frozenset({"sudo", "doas", "pkexec", "run0", "runuser"})
# wrapper → (its options that take a value, how many operands come before the wrapped command)
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "sudo": (frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"}), 0),
    "doas": (frozenset({"-u", "-C"}), 0),
    "pkexec": (frozenset({"--user"}), 0),
    "runuser": (frozenset({"-u", "-g", "-G", "--user", "--group"}), 0),
    "env": (frozenset({"-u", "-C", "-P", "--unset", "--chdir"}), 0),
    "xargs": (
        frozenset(
            {"-I", "-J", "-R", "-S", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--delimiter"}
        ),
        0,
    ),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), 0),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "gtimeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "time": (frozenset({"-f", "-o"}), 0),
    "exec": (frozenset({"-a"}), 0),
    "watch": (frozenset({"-n", "-d", "--interval"}), 0),
    "flock": (frozenset({"-w", "-E", "--timeout"}), 1),
    "chroot": (frozenset({"--userspec", "--groups"}), 1),
    "taskset": (frozenset(), 1),
    "chrt": (frozenset(), 1),
    "npx": (frozenset({"-p", "--package", "-c"}), 0),
    "bunx": (frozenset({"-p", "--package"}), 0),
    "cross-env": (frozenset(), 0),
    "dotenv": (frozenset({"-e", "-c"}), 0),
    **dict.fromkeys(
        (
            "command",
            "builtin",
            "nohup",
            "busybox",
            "nocorrect",
            "noglob",
            "setsid",
            "unbuffer",
            "caffeinate",
            "torsocks",
            "proxychains",
            "proxychains4",
            "firejail",
            "strace",
            "ltrace",
        ),
        (frozenset(), 0),
    ),
}
# tool → its subcommand that runs another program (`uv run pytest`, `bundle exec rake`)
_RUNNERS = {
    "uv": "run", "poetry": "run", "pipenv": "run", "pdm": "run", "hatch": "run", "rye": "run",
    "bundle": "exec", "pnpm": "exec", "yarn": "exec", "conda": "run", "mise": "exec", "asdf": "exec",
}  # fmt: skip
_DLX = {"pnpm": "dlx", "yarn": "dlx", "npm": "exec"}
_PACKAGE_BINS = frozenset(
    {"prisma", "rimraf", "sequelize", "typeorm", "knex", "drizzle-kit", "vercel", "netlify", "cdk"}
)


def unwrap(tokens: Sequence[str]) -> tuple[list[str], str | None, bool]:
    """Strip assignments, keywords and wrappers (`sudo`, `env`, `xargs`, `uv run` …) down to the program."""
    argv, elevated, from_input = list(tokens), None, False
    while argv:
        head = argv[0]
        name = posixpath.basename(head)
        if _ASSIGNMENT.match(head) or head in _KEYWORDS or _package_bin(name, argv):
            argv = argv[1:]
        elif len(argv) > 1 and (_RUNNERS.get(name) == argv[1] or _DLX.get(name) == argv[1]):
            argv = skip_options(argv[2:], frozenset({"--with", "-p", "--package", "-e", "--env"}), 0)
        elif name == "env" and any(a.startswith(("-S", "--split-string")) for a in argv[1:2]):
            rest = argv[1][2:] or argv[2] if argv[1].startswith("-S") else argv[1].split("=", 1)[-1]
            argv = [*split_words([rest]), *argv[3 if argv[1] == "-S" else 2 :]]
        elif name not in _WRAPPERS:
            break
        elif name == "env" and argv[1:2] == ["-"]:
            argv = argv[2:]
        elif name == "command" and {"-v", "-V"} & set(argv[1:2]):
            return [], elevated, from_input  # only looks the program up
        else:
            elevated = name if name in _ELEVATORS else elevated
            from_input = from_input or name == "xargs"
            argv = skip_options(argv[1:], *_WRAPPERS[name])
    return argv, elevated, from_input


def _package_bin(name: str, argv: Sequence[str]) -> bool:
    """`pnpm prisma …`, `yarn rimraf …`: a package manager running a package's program by name."""
    return len(argv) > 1 and name in ("pnpm", "yarn", "bun") and argv[1] in _PACKAGE_BINS


def skip_options(args: Sequence[str], with_value: frozenset[str], operands: int) -> list[str]:
    """The words after a wrapper's options (and its own operands, such as `timeout`'s duration)."""
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        if args[index] == "--":
            index += 1
            break
        index += 2 if args[index] in with_value else 1
    return list(args[index + operands :])


def computed_name(name: str) -> bool:
    """A program name known only when the command runs: a variable, a substitution, a glob, braces.

    A computed folder with a plain name (`$VIRTUAL_ENV/bin/pytest`) is not: the name says the program.
    """
    base = posixpath.basename(name) or name
    return (
        "$" in base
        or "`" in base
        or (_GLOB.search(name) is not None and name not in ("[", "[["))
        or _BRACES.search(name) is not None
    )


def prompt_expansion(words: Sequence[str]) -> bool:
    """`${x@P}` expands a prompt string, which runs the command substitutions inside it."""
    return any(_PROMPT.search(word) for word in words)
