"""Classify shell commands by how destructive they are: "safe", "ask" first, or "refuse" outright.

    classify_command("rm -rf ./build")     -> safe
    classify_command("git push --force")   -> ask     (asks even in auto-edit mode)
    classify_command("ls && rm -rf ~")     -> refuse  (refused in every mode, yolo included)

A command line is split into simple commands on `;`, `&&`, `||`, `|`, `&`, newlines and the brackets of
subshells and groups, respecting quotes, so `echo "rm -rf /"` is only an echo. Each simple command is
unquoted with `shlex` (POSIX), stripped of assignments and wrappers (`sudo`, `env`, `nohup`, `xargs`, ...)
and judged by its program's rule in `danger_rules`. Strings run by `sh -c`, command substitutions and
scripts fed to a shell are judged as command lines of their own. The most severe finding wins.

What cannot be understood asks: unbalanced quotes, `eval`, a program name computed at run time, inline
interpreter code that deletes files or spawns commands, downloaded content run by an interpreter.
Unknown programs are safe: the approval mode already decides whether commands run at all, and this
classifier only singles out the destructive ones.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass

from asi_agent.policy.danger_rules import Finding, Level, RuleContext, rule_for, worst, write_target
from asi_agent.policy.shell_scan import (
    Scanner,
    Simple,
    Unparsable,
    dequote,
    split_words,
)

__all__ = ["CommandRisk", "RiskLevel", "classify_command"]

RiskLevel = Level
""""safe" follows the approval mode, "ask" asks even in auto-edit, "refuse" is refused even in yolo."""


@dataclass(frozen=True, slots=True)
class CommandRisk:
    """The verdict on one command line."""

    level: RiskLevel
    """How destructive the command is."""
    reason: str
    """A short sentence saying why, for the person and the model."""
    matched: str | None
    """The part of the command that decided the level; None when nothing did or it could not be parsed."""


_SAFE = CommandRisk("safe", "no destructive command recognised", None)
_NOTHING = Finding("safe", _SAFE.reason)
_MAX_DEPTH = 8
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_NAME = r"(?<![^\s;&|(){}])(?P<n>[^\s(){}|&;<>'\"]++)"
_BODY = r"\s*\{\s*(?P=n)\s*\|&?\s*(?P=n)\s*&?\s*;?\s*\}"
_FORK_BOMBS = (re.compile(_NAME + r"\s*\(\s*\)" + _BODY), re.compile(r"\bfunction\s+" + _NAME + _BODY))
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"})
# wrapper → (its options that take a value, how many operands come before the wrapped command)
_WRAPPERS: dict[str, tuple[frozenset[str], int]] = {
    "sudo": (frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"}), 0),
    "doas": (frozenset({"-u", "-C"}), 0),
    "env": (frozenset({"-u", "-C", "-S", "--unset", "--chdir"}), 0),
    "xargs": (frozenset({"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--max-args", "--delimiter"}), 0),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "ionice": (frozenset({"-c", "-n", "-p"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e"}), 0),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "time": (frozenset({"-f", "-o"}), 0),
    "exec": (frozenset({"-a"}), 0),
    **dict.fromkeys(("command", "builtin", "nohup", "busybox", "nocorrect", "noglob"), (frozenset(), 0)),
}
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh"})
_PYTHON = re.compile(r"python[\d.]*|pypy3?")
# interpreter family → (letters of its inline-code flags, options that take a value)
_INTERPRETERS: dict[str, tuple[str, frozenset[str]]] = {
    "sh": ("c", frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})),
    "python": ("c", frozenset({"-W", "-X"})),
    "perl": ("eE", frozenset({"-I", "-M", "-m"})),
    "ruby": ("e", frozenset({"-I", "-r"})),
    "node": ("ep", frozenset({"-r", "--require"})),
    "php": ("r", frozenset({"-d", "-c"})),
}
_FAMILIES = {"perl": "perl", "ruby": "ruby", "node": "node", "nodejs": "node", "php": "php"}
_CLUSTER = re.compile(r"-[A-Za-z]+")
_DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c"})
_DOWNLOAD = re.compile(r"(?<![\w.-])(?:curl|wget|fetch|aria2c)(?![\w.-])")
_INLINE_DANGER = re.compile(
    r"rmtree|os\.(?:remove|unlink|rmdir|removedirs|system|popen|exec)|\bsubprocess\b|child_process"
    r"|\.(?:unlink|rmdir)\(|\bunlink(?:Sync)?\b|\brm(?:dir)?Sync\b|rm_rf|FileUtils\.rm|\bsystem\s*\("
    r"|shell_exec"
)


def classify_command(command: str) -> CommandRisk:
    """Classify one shell command line; the most severe of its simple commands decides."""
    try:
        return _classify_script(command, 0)
    except RecursionError:
        return CommandRisk("ask", "the command is nested too deeply to be understood", None)


def _classify_script(text: str, depth: int) -> CommandRisk:
    if depth > _MAX_DEPTH:
        return CommandRisk("ask", "the command is nested too deeply to be understood", None)
    bomb = _fork_bomb(text)
    if bomb:
        return CommandRisk("refuse", "fork bomb: refused in every mode", bomb)
    try:
        commands = [_command(simple) for simple in Scanner(text).scan()]
    except Unparsable as exc:
        return CommandRisk("ask", f"the command could not be understood ({exc})", None)
    return worst([*_judge_pipelines(commands, depth), *(_judge_simple(c, depth) for c in commands)]) or _SAFE


def _as_finding(risk: CommandRisk) -> Finding:
    return Finding(risk.level, risk.reason)


def _fork_bomb(text: str) -> str | None:
    """The text of a function that pipes itself into itself, outside quoted strings."""
    code = _QUOTED.sub("''", text)
    return next((m.group(0) for p in _FORK_BOMBS for m in p.finditer(code)), None)


@dataclass(frozen=True, slots=True)
class _Command:
    """A simple command unquoted: its words and the targets of its redirections."""

    simple: Simple
    tokens: list[str]
    redirects: list[tuple[str, str]]

    @property
    def argv(self) -> list[str]:
        return _unwrap(self.tokens)[0]

    @property
    def program(self) -> str:
        return posixpath.basename(self.argv[0]) if self.argv else ""


def _command(simple: Simple) -> _Command:
    redirects = [(op, dequote(raw)) for op, raw in simple.redirects]
    return _Command(simple, split_words(simple.words), redirects)


def _unwrap(tokens: Sequence[str]) -> tuple[list[str], str | None, bool]:
    """Strip assignments, keywords and wrappers (`sudo`, `env`, `xargs`, ...) down to the real program."""
    argv, elevated, from_input = list(tokens), None, False
    while argv:
        head = argv[0]
        name = posixpath.basename(head)
        if _ASSIGNMENT.match(head) or head in _KEYWORDS:
            argv = argv[1:]
        elif name not in _WRAPPERS:
            break
        elif name == "command" and {"-v", "-V"} & set(argv[1:2]):
            return [], elevated, from_input  # only looks the program up
        else:
            elevated = name if name in ("sudo", "doas") else elevated
            from_input = from_input or name == "xargs"
            argv = _skip_options(argv[1:], *_WRAPPERS[name])
    return argv, elevated, from_input


def _skip_options(args: Sequence[str], with_value: frozenset[str], operands: int) -> list[str]:
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        if args[index] == "--":
            index += 1
            break
        index += 2 if args[index] in with_value else 1
    return list(args[index + operands :])


def _judge_simple(command: _Command, depth: int) -> CommandRisk:
    simple = command.simple
    found = worst([
        *(_judge_redirect(op, target) for op, target in command.redirects),
        _judge_argv(command.tokens, depth, simple, from_input=False),
    ])  # fmt: skip
    own = CommandRisk(found.level, found.reason, simple.source) if found and found.level != "safe" else _SAFE
    return worst([own, *(_classify_script(source, depth + 1) for source in simple.nested)]) or _SAFE


def _judge_redirect(op: str, target: str) -> Finding | None:
    if op not in _WRITES or (op == ">&" and (target.isdigit() or target == "-")):
        return None
    return write_target(target)


def _judge_argv(
    tokens: Sequence[str], depth: int, simple: Simple | None = None, *, from_input: bool = True
) -> Finding:
    """Judge one command's words; by default as run on input items (`find -exec`), operands unknown."""
    argv, elevated, via_xargs = _unwrap(tokens)
    found = _judge_program(argv, from_input or via_xargs, depth, simple) if argv else None
    elevation = Finding("ask", f"{elevated} runs the command with root privileges") if elevated else None
    return worst([found, elevation]) or _NOTHING


def _judge_program(argv: list[str], from_input: bool, depth: int, simple: Simple | None) -> Finding | None:
    program = posixpath.basename(argv[0])
    if "$" in argv[0]:
        return Finding(
            "ask", "the program name is computed when the command runs: it could not be understood"
        )
    family = _family(program)
    if family:
        return _judge_interpreter(program, family, argv[1:], depth, simple)
    if program == "eval":
        script = _as_finding(_classify_script(" ".join(argv[1:]), depth + 1))
        return worst([Finding("ask", "eval runs text built at run time: it could not be understood"), script])
    if program in ("source", ".") and simple and any(_DOWNLOAD.search(n) for n in simple.nested):
        return Finding("ask", f"{program} runs code downloaded from the network, which cannot be inspected")
    check = rule_for(program)
    if check is None:
        return None
    context = RuleContext(
        program,
        from_input,
        script=lambda text: _as_finding(_classify_script(text, depth + 1)),
        exec_argv=lambda tokens: _judge_argv(tokens, depth + 1),
    )
    return check(argv[1:], context)


def _family(program: str) -> str | None:
    if program in _SHELLS:
        return "sh"
    return "python" if _PYTHON.fullmatch(program) else _FAMILIES.get(program)


def _program_source(family: str, args: Sequence[str]) -> tuple[str, str]:
    """Where an interpreter reads its program: ("code", text), ("module"|"file", name) or ("stdin", "")."""
    letters, with_value = _INTERPRETERS[family]
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in ("--eval", "--print") or (_CLUSTER.fullmatch(arg) and arg[-1] in letters):
            return ("code", args[index + 1]) if index + 1 < len(args) else ("stdin", "")
        if family == "python" and arg.startswith("-m"):
            return "module", arg[2:] or " ".join(args[index + 1 : index + 2])
        if arg == "-" or (family == "sh" and arg == "-s"):
            return "stdin", ""
        if arg == "--" or not arg.startswith(("-", "+")):
            index += arg == "--"
            break
        index += 2 if arg in with_value else 1
    return ("file", args[index]) if index < len(args) else ("stdin", "")


def _judge_interpreter(
    program: str, family: str, args: Sequence[str], depth: int, simple: Simple | None
) -> Finding | None:
    kind, value = _program_source(family, args)
    findings: list[Finding | None] = []
    if kind == "code" and family == "sh":
        findings.append(_as_finding(_classify_script(value, depth + 1)))
    elif kind == "code" and _INLINE_DANGER.search(value):
        findings.append(
            Finding("ask", f"inline {program} code deletes files or runs commands: not understood")
        )
    elif kind == "module" and value == "pip" and "uninstall" in args:
        findings.append(Finding("ask", "pip uninstall removes installed packages"))
    if simple and any(_DOWNLOAD.search(source) for source in simple.nested):
        findings.append(Finding("ask", f"{program} runs code downloaded from the network, not inspectable"))
    if simple and simple.heredocs and kind == "stdin":
        findings.append(_fed_scripts(program, family, simple.heredocs, depth))
    return worst(findings)


def _fed_scripts(program: str, family: str, scripts: Sequence[str], depth: int) -> Finding:
    """Scripts written into an interpreter's input: asked, and judged as command lines for a shell."""
    found = [Finding("ask", f"a script fed to {program} on its input could not be understood")]
    if family == "sh":
        found += [_as_finding(_classify_script(script, depth + 1)) for script in scripts]
    return worst(found) or _NOTHING


def _judge_pipelines(commands: Sequence[_Command], depth: int) -> list[CommandRisk]:
    """Risks of what flows down pipes into an interpreter that reads its program from its input."""
    risks: list[CommandRisk] = []
    upstream: list[_Command] = []
    for command in commands:
        family = _family(command.program)
        if upstream and family and _program_source(family, command.argv[1:])[0] == "stdin":
            found = _judge_feed(upstream, command.program, family, depth)
            source = " | ".join(c.simple.source for c in [*upstream, command])
            risks += [CommandRisk(found.level, found.reason, source)] if found else []
        upstream = [*upstream, command] if command.simple.pipe_next else []
    return risks


def _judge_feed(upstream: Sequence[_Command], program: str, family: str, depth: int) -> Finding | None:
    if any(c.program in _DOWNLOADERS for c in upstream):
        return Finding("ask", f"pipes downloaded content into {program}: it cannot be inspected first")
    scripts = [body for c in upstream for body in c.simple.heredocs]
    if upstream[-1].program in ("echo", "printf"):
        scripts.append(" ".join(upstream[-1].argv[1:]))
    return _fed_scripts(program, family, scripts, depth) if scripts else None
