"""Classify shell commands by how destructive they are: "safe", "ask" first, or "refuse" outright.

    classify_command("rm -rf ./build")     -> safe
    classify_command("git push --force")   -> ask     (asks even in auto-edit mode)
    classify_command("ls && rm -rf ~")     -> refuse  (refused in every mode, yolo included)

A command line is split into simple commands on `;`, `&&`, `||`, `|`, `&`, newlines and the brackets of
subshells and groups, respecting quotes, so `echo "rm -rf /"` is only an echo. Each simple command is
unquoted with `shlex` (POSIX), stripped of assignments and wrappers (`sudo`, `env`, `nohup`, `xargs`,
`uv run`, `npx` …) and judged by its program's rule in `danger_rules`. Strings run by `sh -c`, `eval`,
command substitutions, here-documents and here-strings fed to a shell are judged as command lines of
their own; other interpreters' code is scanned (`danger_exec`). The most severe finding wins, and the
verdict carries the targets of every destructive finding (`CommandRisk.targets`), resolved against any
`cd` that came before, so that `yolo` can refuse those outside the project.

What cannot be understood asks: unbalanced quotes, `eval`, code piped into an interpreter from a
download, a decoder or another program, files downloaded and run. A program name computed at run time
(`$X -rf /`, `$(echo rm)`, `/???/r?`) asks with an unknown target, so yolo refuses it. Variables that
carry a command (`GIT_SSH_COMMAND=…`), `/dev/tcp` redirections and pipelines joining a shell to a network
client are judged here; options that carry commands, uploads and archives in their rule families.
Unknown programs are safe: the approval mode already decides whether commands run at all, and this
classifier only singles out the destructive ones.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from asi_agent.policy.danger_archives import ARCHIVERS, with_folder
from asi_agent.policy.danger_carriers import carrier_variables
from asi_agent.policy.danger_exec import (
    DOWNLOAD_WORD,
    downloaded_names,
    family,
    judge_feed,
    judge_interpreter,
    program_source,
)
from asi_agent.policy.danger_network import pipeline_shell, socket_redirect
from asi_agent.policy.danger_paths import UNKNOWN, catastrophic
from asi_agent.policy.danger_rules import Finding, Level, RuleContext, rule_for, worst, write_target
from asi_agent.policy.danger_wrappers import computed_name, prompt_expansion, unwrap
from asi_agent.policy.shell_scan import Scanner, Simple, Unparsable, dequote, split_words

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
    targets: tuple[str, ...] = field(default=())
    """What the destructive parts act on: paths as written (after any `cd`), or `remote:<what>`."""

    def with_targets(self, targets: tuple[str, ...]) -> CommandRisk:
        """The same verdict acting on other targets."""
        return replace(self, targets=targets)


_SAFE = CommandRisk("safe", "no destructive command recognised", None)
_NOTHING = Finding("safe", _SAFE.reason)
_MAX_DEPTH = 8
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_NAME = r"(?<![^\s;&|(){}])(?P<n>[^\s(){}|&;<>'\"]++)"
_BODY = r"\s*\{\s*(?P=n)\s*\|&?\s*(?P=n)\s*&?\s*;?\s*\}"
_FORK_BOMBS = (re.compile(_NAME + r"\s*\(\s*\)" + _BODY), re.compile(r"\bfunction\s+" + _NAME + _BODY))
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


def classify_command(command: str) -> CommandRisk:
    """Classify one shell command line; the most severe of its simple commands decides."""
    try:
        return _classify_script(command, 0)
    except RecursionError:
        return CommandRisk("ask", "the command is nested too deeply to be understood", None, (UNKNOWN,))


def _classify_script(text: str, depth: int) -> CommandRisk:
    if depth > _MAX_DEPTH:
        return CommandRisk("ask", "the command is nested too deeply to be understood", None, (UNKNOWN,))
    bomb = _fork_bomb(text)
    if bomb:
        return CommandRisk("refuse", "fork bomb: refused in every mode", bomb)
    try:
        commands = [_command(simple) for simple in Scanner(text).scan()]
    except Unparsable as exc:
        return CommandRisk("ask", f"the command could not be understood ({exc})", None)
    risks: list[CommandRisk] = []
    cwd, downloaded = "", set[str]()
    upstream: list[_Command] = []
    for command in commands:
        risk = _judge_simple(_rebased(command, cwd), depth, upstream, downloaded)
        risks.append(_in_folder(risk, cwd) if cwd else risk)
        if upstream and not command.simple.pipe_next:
            risks.append(_pipeline(upstream, command))
        cwd = _cd(command, cwd)
        downloaded |= downloaded_names(command.program, command.argv, command.redirects)
        upstream = [*upstream, command] if command.simple.pipe_next else []
    return worst(risks) or _SAFE


def _pipeline(upstream: Sequence[_Command], command: _Command) -> CommandRisk:
    """A whole pipeline: a shell joined to a network client is a reverse shell."""
    pipeline = [*upstream, command]
    found = pipeline_shell([(c.program, c.argv) for c in pipeline])
    if found is None:
        return _SAFE
    return CommandRisk(
        found.level, found.reason, " | ".join(c.simple.source for c in pipeline), found.targets
    )


def _cd(command: _Command, cwd: str) -> str:
    """The folder later commands run in after `cd`/`pushd` ("" for the project root)."""
    argv = command.argv
    if not argv or argv[0] not in ("cd", "pushd"):
        return cwd
    dest = next((a for a in argv[1:] if a == "-" or not a.startswith("-")), "~")
    if dest == "-":
        return UNKNOWN
    if "$" in dest and not dest.startswith(("$HOME", "${HOME}")):
        return UNKNOWN
    return dest if dest.startswith(("/", "~", "$")) else posixpath.join(cwd, dest) if cwd else dest


_FILE_OPERANDS = frozenset({"rm", "unlink", "shred", "truncate", "tee", "rmdir"})


def _rebased(command: _Command, cwd: str) -> _Command:
    """After `cd` out of the project, relative files of deletes and redirections are judged where they are."""
    if not cwd or not cwd.startswith(("/", "~", "$", "..")):
        return command
    redirects = [(op, _under(cwd, t) if _file_redirect(op, t) else t) for op, t in command.redirects]
    tokens = command.tokens
    if command.program in ARCHIVERS:
        tokens = with_folder(command.program, tokens, cwd)
    if command.program in _FILE_OPERANDS:
        start = len(tokens) - len(command.argv) + 1  # the program's operands, after any wrapper
        tokens = [*tokens[:start], *(t if t.startswith("-") else _under(cwd, t) for t in tokens[start:])]
    return _Command(command.simple, tokens, redirects)


def _in_folder(risk: CommandRisk, cwd: str) -> CommandRisk:
    """Targets resolved against an earlier `cd`; a destructive operation on a system place is refused."""
    targets = tuple(_under(cwd, t) for t in risk.targets)
    place = next((p for p in map(catastrophic, targets) if p), None)
    if risk.level == "ask" and place:
        return CommandRisk(
            "refuse", f"{risk.reason}, in {place}: refused in every mode", risk.matched, targets
        )
    return risk.with_targets(targets)


def _under(cwd: str, target: str) -> str:
    if not cwd or target.startswith(("/", "~", "$", "remote:")):
        return target
    return posixpath.join(cwd, target)


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
        """The words from the program on, wrappers and assignments removed."""
        return unwrap(self.tokens)[0]

    @property
    def program(self) -> str:
        """The program's name without its directory."""
        return posixpath.basename(self.argv[0]) if self.argv else ""

    @property
    def fed(self) -> list[str]:
        """Texts written into the command's input: here-documents and here-strings."""
        return [*self.simple.heredocs, *(target for op, target in self.redirects if op == "<<<")]


def _command(simple: Simple) -> _Command:
    redirects = [(op, dequote(raw)) for op, raw in simple.redirects]
    return _Command(simple, split_words(simple.words), redirects)


def _judge_simple(
    command: _Command, depth: int, upstream: Sequence[_Command], downloaded: set[str]
) -> CommandRisk:
    simple = command.simple
    found = worst([
        *(_judge_redirect(op, target, command.program) for op, target in command.redirects),
        _judge_argv(command.tokens, depth, command, upstream),
        _runs_download(command, downloaded),
        Finding("ask", "a ${…@P} expansion runs commands built at run time", (UNKNOWN,))
        if prompt_expansion(simple.words)
        else None,
    ])  # fmt: skip
    piped = upstream and family(command.program)
    source = " | ".join(c.simple.source for c in [*upstream, command]) if piped else simple.source
    own = (
        CommandRisk(found.level, found.reason, source, found.targets)
        if found and found.level != "safe"
        else _SAFE
    )
    return worst([own, *(_classify_script(source, depth + 1) for source in simple.nested)]) or _SAFE


def _file_redirect(op: str, target: str) -> bool:
    """A redirection that writes a file (`> f`, `&> f`), not a duplication of a descriptor (`2>&1`)."""
    return op in _WRITES and not (op == ">&" and (target.isdigit() or target == "-"))


def _judge_redirect(op: str, target: str, program: str) -> Finding | None:
    network = socket_redirect(op, target, program)
    if network:
        return network
    return write_target(target) if _file_redirect(op, target) else None


def _runs_download(command: _Command, downloaded: set[str]) -> Finding | None:
    """A file downloaded earlier in the same command line, now run."""
    argv = command.argv
    if not downloaded or not argv:
        return None
    fam = family(command.program)
    runs = [argv[0]] + (argv[1:2] if command.program in ("source", ".") else [])
    if fam:
        kind, value = program_source(fam, argv[1:])
        runs += [value] if kind == "file" else []
    name = next((posixpath.basename(r) for r in runs if posixpath.basename(r) in downloaded), None)
    return (
        Finding("ask", f"runs {name}, downloaded in the same command: it cannot be inspected")
        if name
        else None
    )


def _judge_argv(
    tokens: Sequence[str], depth: int, command: _Command | None = None, upstream: Sequence[_Command] = ()
) -> Finding:
    """Judge one command's words; without `command`: as run on input items (`find -exec`)."""
    argv, elevated, via_xargs = unwrap(tokens)
    here = _Here(depth, command, tuple(upstream), from_input=command is None or via_xargs)
    placed = any("{}" in word for word in argv)
    items = here.fed_items(lines=placed) if via_xargs and command is not None else None
    if items and argv:
        runs = [[w.replace("{}", i) for w in argv] for i in items] if placed else [[*argv, *items]]
        known = _Here(depth, command, (), from_input=False)
        found = worst(known.judge(words) for words in runs)
        elevation = Finding("ask", f"{elevated} runs the command with root privileges") if elevated else None
        return worst([found, elevation]) or _NOTHING
    found = here.judge(argv) if argv else None
    elevation = Finding("ask", f"{elevated} runs the command with root privileges") if elevated else None
    prefix = list(tokens[: len(tokens) - len(argv)])
    carried = (
        carrier_variables(prefix, here.context(posixpath.basename(argv[0]) if argv else ""))
        if "=" in "".join(prefix)
        else None
    )
    return worst([found, elevation, carried]) or _NOTHING


@dataclass(frozen=True, slots=True)
class _Here:
    """Where a program runs: nesting depth, its simple command and what pipes into it."""

    depth: int
    command: _Command | None
    upstream: tuple[_Command, ...]
    from_input: bool

    def script(self, text: str) -> Finding:
        """Classify a nested command line one level deeper."""
        return _as_finding(_classify_script(text, self.depth + 1))

    def judge(self, argv: list[str]) -> Finding | None:
        """Judge one program's words by its family or rule."""
        program = posixpath.basename(argv[0])
        if computed_name(argv[0]):
            return self._computed(program, argv)
        fam = family(program)
        if fam:
            return self._interpreter(program, fam, argv)
        if program == "eval":
            found = Finding("ask", "eval runs text built at run time: it could not be understood")
            return worst([found, self.script(" ".join(argv[1:]))])
        if program in ("source", ".", "alias", "trap"):
            return self._sourced(program, argv)
        check = rule_for(program)
        if check is None:
            return None
        return check(argv[1:], self.context(program))

    def context(self, program: str) -> RuleContext:
        """What a rule knows besides the arguments: nested scripts, input, what pipes in."""
        last = self.upstream[-1] if self.upstream else None
        own = self.command.redirects if self.command else []
        return RuleContext(
            program,
            self.from_input,
            script=self.script,
            exec_argv=lambda tokens: _judge_argv(tokens, self.depth + 1),
            command=lambda tokens: _judge_argv(tokens, self.depth + 1, self.command),
            stdin=tuple(self.fed() or ()),
            inputs=tuple(target for op, target in own if op == "<" and not target.startswith("/dev/")),
            piped=last is not None,
            literal_input=last is not None and last.program in ("echo", "printf") and not last.simple.nested,
        )

    def _computed(self, program: str, argv: list[str]) -> Finding | None:
        """A program named at run time asks, and yolo refuses it; `$SHELL -c …` also has its script read."""
        computed = Finding(
            "ask",
            "the program name is computed when the command runs: it could not be understood",
            (UNKNOWN,),
        )
        if program in ("$SHELL", "${SHELL}", "$0", "${0}"):
            return worst([computed, self._interpreter("sh", "sh", argv)])
        return computed

    def fed(self) -> list[str] | None:
        """Texts known to reach the command's input; None when piped input comes from elsewhere."""
        own = self.command.fed if self.command else []
        if not self.upstream:
            return own
        last = self.upstream[-1]
        if last.program in ("echo", "printf"):
            words = [a for a in last.argv[1:] if not (last.program == "echo" and a in ("-n", "-E"))]
            return [*own, " ".join(words)]
        if last.program == "cat" and len(last.argv) == 1 and last.fed:
            return [*own, *last.fed]
        return own or None

    def fed_items(self, *, lines: bool) -> list[str] | None:
        """The items fed on input when all are known (`echo a b | xargs rm`): words, or lines for `-I`."""
        fed = self.fed() if self.upstream else None
        if not fed:
            return None
        return [ln.strip() for t in fed for ln in t.splitlines() if ln.strip()] if lines else split_words(fed)

    def _interpreter(self, program: str, fam: str, argv: list[str]) -> Finding | None:
        fed = self.fed()
        nested = self.command.simple.nested if self.command else []
        kind, value = program_source(fam, argv[1:])
        if self.from_input and fam == "sh" and (kind == "stdin" or "{}" in value):
            return Finding("ask", f"{program} runs code read from input: it cannot be inspected", (UNKNOWN,))
        piped = None
        if self.upstream and kind == "stdin":
            pairs = [(c.program, c.argv) for c in self.upstream]
            piped = judge_feed(pairs, fed or [], program, fam, self.script)
        inline = judge_interpreter(program, fam, argv[1:], fed, nested=nested, script=self.script)
        return worst([piped, inline, self._script_file(argv, kind, value)])

    def _script_file(self, argv: list[str], kind: str, value: str) -> Finding | None:
        """`python manage.py flush`, `php artisan db:wipe`; scripts whose names come from input."""
        if kind != "file":
            return None
        if self.from_input or value in ("{}", ""):
            return Finding("ask", f"runs scripts whose names come from input with {argv[0]}", (UNKNOWN,))
        index = argv.index(value) if value in argv else len(argv)
        return _judge_argv([posixpath.basename(value), *argv[index + 1 :]], self.depth + 1, self.command)

    def _sourced(self, program: str, argv: list[str]) -> Finding | None:
        """`alias x='…'` and `trap '…' EXIT` hold scripts; `source <(curl …)` runs downloaded code."""
        if program == "alias":
            return worst(self.script(a.split("=", 1)[1]) for a in argv[1:] if "=" in a)
        if program == "trap":
            return self.script(argv[1]) if len(argv) > 1 else None
        nested = self.command.simple.nested if self.command else []
        if any(DOWNLOAD_WORD.search(source) for source in nested):
            return Finding(
                "ask", f"{program} runs code downloaded from the network, which cannot be inspected"
            )
        fed = self.fed()
        if argv[1:2] in (["/dev/stdin"], ["-"]) and fed:
            return worst(self.script(text) for text in fed)
        return None


def _as_finding(risk: CommandRisk) -> Finding:
    return Finding(risk.level, risk.reason, risk.targets)
