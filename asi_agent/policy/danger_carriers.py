"""Carriers: programs that run another command given in an option, a config override or a variable.

    git -c core.pager='…' log        ssh -o ProxyCommand='…' host      rsync -e '…' src host:dst
    tar --checkpoint-action=exec='…' sed 's/x/…/e'                     make --eval='$(shell …)'
    GIT_SSH_COMMAND='…' git fetch    LESSOPEN='| …' less f             vim -c '!…'

The carried command is classified like a command line of its own, and its findings (targets included)
are the carrier's. Beyond that, a carried command asks unless every program in it is plainly harmless
(a pager, an editor, `ssh`, a compressor): an option that smuggles in a program is how a guard is
bypassed, and everyday work rarely needs one (`GIT_PAGER=cat`, `rsync -e 'ssh -p 2222'`, `tar -I zstd`
stay quiet).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext
from asi_agent.policy.danger_exec import family, judge_inline, program_source
from asi_agent.policy.danger_paths import Finding, ask, worst
from asi_agent.policy.danger_wrappers import unwrap
from asi_agent.policy.shell_scan import Scanner, Unparsable, split_words

__all__ = ["CARRIER_RULES", "carried", "carrier_variables"]

HARMLESS = frozenset({
    "less", "more", "most", "cat", "bat", "batcat", "delta", "diff-so-fancy", "diff-highlight", "head",
    "tail", "ssh", "plink", "gzip", "gunzip", "pigz", "bzip2", "pbzip2", "xz", "zstd", "unzstd", "lz4",
    "lzip", "lzma", "brotli", "vim", "vi", "nvim", "nano", "emacs", "emacsclient", "code", "subl", "mate",
    "true", "false", "sort", "grep", "tr", "jq", "column", "git", "gpg", "echo", "printf", "wc", "tee",
    "ls", "pwd", "id", "whoami", "date", "uname", "hostname", "stat", "file", "diff", "cmp", "rg",
})  # fmt: skip
_VARIABLES = frozenset({
    "PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR", "SYSTEMD_EDITOR", "SUDO_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "RSYNC_RSH",
    "LESSOPEN", "LESSCLOSE", "BASH_ENV", "ENV", "PROMPT_COMMAND", "GIT_EXEC_PATH",
})  # fmt: skip
_ASSIGNMENT = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)\+?=(?P<value>.*)$", re.S)
_GIT_KEY = re.compile(
    r"(?i)^(?:core\.(?:pager|editor|sshcommand)|sequence\.editor|pager\..+|.+(?:command|cmd))$"
)
_SED_E = re.compile(
    r"(?:^|[;\n{}])\s*(?:\d+|\$|/(?:[^/\\]|\\.)*/)?\s*e(?:\s+(?P<cmd>[^;\n}]*))?\s*(?:$|[;\n}])"
)
_SED_S = re.compile(
    r"(?:^|[;\n{}])\s*s(?P<d>[^\w\s\\])(?:(?!(?P=d))[^\\]|\\.)*(?P=d)(?P<r>(?:(?!(?P=d))[^\\]|\\.)*)(?P=d)[gpiImM0-9w]*e"
)
_MAKE_SHELL = re.compile(r"\$[({]shell\s+(?P<cmd>[^)}]*)[)}]")
_VIM_BANG = re.compile(
    r"^:?\s*(?:silent!?\s+)?(?:!|sh(?:ell)?\b|te(?:rminal)?\b|r(?:ead)?\s*!|w(?:rite)?\s*!)"
)


def carried(text: str, ctx: RuleContext, via: str) -> Finding | None:
    """Judge a command run through `via`: its own findings, else ask unless it is plainly harmless."""
    text = text.strip()
    if not text:
        return None
    found = ctx.script(text)
    if found.level != "safe":
        return Finding(found.level, f"{via} runs `{_short(text)}`: {found.reason}", found.targets)
    stranger = _stranger(text, 0)
    if stranger is None:
        return None
    return ask(f"{via} runs `{_short(text)}` ({stranger}), a command hidden in an option")


def _stranger(text: str, depth: int) -> str | None:
    """The first program in `text` that is not plainly harmless (a shell, an unknown program), if any."""
    if depth > 4:
        return "nested too deeply"
    try:
        commands = [split_words(simple.words) for simple in Scanner(text).scan()]
    except Unparsable:
        return "could not be understood"
    for tokens in commands:
        argv = unwrap(tokens)[0]
        if not argv:
            continue
        program = posixpath.basename(argv[0])
        if family(program) == "sh":
            kind, code = program_source("sh", argv[1:])
            inner = _stranger(code, depth + 1) if kind == "code" else f"a {program} shell"
            if inner:
                return inner
        elif program not in HARMLESS:
            return program or argv[0]
    return None


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


def carrier_variables(tokens: Sequence[str], ctx: RuleContext) -> Finding | None:
    """Variables that hold a command for the program they are set for (`GIT_SSH_COMMAND=… git …`)."""
    findings: list[Finding | None] = []
    for token in tokens:
        match = _ASSIGNMENT.match(token)
        if not match:
            continue
        name, value = match["name"], match["value"]
        if name in ("LESSOPEN", "LESSCLOSE"):
            value = value.lstrip("|-").replace("%s", "")
        if name in _VARIABLES:
            findings.append(carried(value, ctx, f"${name}"))
        elif name == "PERL5DB" or (name == "PERL5OPT" and re.search(r"-[dM]", value)):
            findings.append(judge_inline("perl", "perl", value, ctx.script) or ask(f"${name} runs perl code"))
        elif name == "LD_PRELOAD" and value:
            findings.append(ask(f"LD_PRELOAD loads {value} into every program that starts"))
    return worst(findings)


def _values(args: Sequence[str], *names: str, attached: str = "") -> list[str]:
    """The values of options `--name=v`, `--name v`, `-n v` (and `-nv` for the `attached` short forms)."""
    values: list[str] = []
    for index, arg in enumerate(args):
        key, eq, value = arg.partition("=")
        if key in names and eq:
            values.append(value)
        elif arg in names and index + 1 < len(args):
            values.append(args[index + 1])
        elif attached and arg.startswith(attached) and len(arg) > len(attached) and not arg.startswith("--"):
            values.append(arg[len(attached) :])
    return values


def _check_git(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    findings: list[Finding | None] = []
    index = 0
    while index < len(args) and args[index].startswith("-"):
        arg = args[index]
        if arg == "-c" and index + 1 < len(args):
            key, _, value = args[index + 1].partition("=")
            findings.append(_git_setting(key, value, ctx))
            index += 1
        elif arg.startswith("--exec-path="):
            findings.append(ask(f"git {arg} runs git's commands from another folder"))
        elif arg in ("-C", "--git-dir", "--work-tree", "--namespace", "--config-env"):
            index += 1
        index += 1
    rest = list(args[index:])
    if rest[:1] == ["config"]:
        operands = [a for a in rest[1:] if not a.startswith("-")]
        operands = operands[1:] if operands[:1] in (["set"], ["--add"]) else operands
        if len(operands) >= 2:
            findings.append(_git_setting(operands[0], operands[1], ctx))
    if rest[:1] == ["clone"] or rest[:1] == ["submodule"]:
        for key_value in _values(rest, "-c", "--config"):
            key, _, value = key_value.partition("=")
            findings.append(_git_setting(key, value, ctx))
    return worst(findings)


def _git_setting(key: str, value: str, ctx: RuleContext) -> Finding | None:
    """A git setting whose value is a command: pagers, editors, ssh commands, `!` aliases."""
    if key.lower().startswith("alias."):
        return carried(value[1:], ctx, f"the git alias {key}") if value.startswith("!") else None
    return carried(value, ctx, f"git's {key}") if _GIT_KEY.match(key) else None


def _check_ssh_options(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`-o ProxyCommand=…`, `-o LocalCommand=…` (ssh, scp, sftp) and `-S program` (scp, sftp)."""
    findings: list[Finding | None] = []
    for option in _values(args, "-o", attached="-o"):
        key, value = [*re.split(r"\s*=\s*|\s+", option.strip(), maxsplit=1), ""][:2]
        if key.lower() in ("proxycommand", "localcommand", "knownhostscommand", "remotecommand"):
            findings.append(carried(value.lstrip(";"), ctx, f"ssh's {key}"))
    if ctx.program in ("scp", "sftp"):
        findings += [carried(v, ctx, f"{ctx.program} -S") for v in _values(args, "-S")]
    return worst(findings)


def _check_rsync(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    shells = _values(args, "-e", "--rsh", attached="-e")
    return worst(carried(value, ctx, "rsync's remote shell") for value in shells)


def _check_tar(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    findings = [
        carried(value.removeprefix("exec="), ctx, "tar's checkpoint action")
        for value in _values(args, "--checkpoint-action")
        if value.startswith("exec=")
    ]
    for name in (
        "--to-command",
        "--use-compress-program",
        "--rsh-command",
        "--info-script",
        "--new-volume-script",
    ):
        findings += [carried(value, ctx, f"tar {name}") for value in _values(args, name)]
    findings += [carried(value, ctx, "tar -I") for value in _values(args, "-I", attached="-I")]
    findings += [carried(value, ctx, "tar -F") for value in _values(args, "-F")]
    return worst(findings)


def _check_sed(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    scripts = _values(args, "-e", "--expression")
    if not scripts and not _values(args, "-f", "--file"):
        operands = [a for a in args if not a.startswith("-")]
        scripts = operands[:1]
    findings: list[Finding | None] = []
    for script in scripts:
        for match in _SED_E.finditer(script):
            command = match["cmd"]
            findings.append(
                carried(command, ctx, "sed's e command")
                if command
                else ask("sed's e command runs the text it reads as commands")
            )
        for match in _SED_S.finditer(script):
            replacement = match["r"].replace("\\" + match["d"], match["d"])
            findings.append(
                worst([carried(replacement, ctx, "sed's s///e"), ask("sed s///e runs its output")])
            )
    return worst(findings)


def _check_make(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    findings: list[Finding | None] = []
    for text in _values(args, "--eval", "-E"):
        findings += [carried(m["cmd"], ctx, "make's $(shell)") for m in _MAKE_SHELL.finditer(text)]
        if "$(file" in text:
            findings.append(ask("make --eval writes files with $(file …)"))
    return worst(findings)


def _check_editor(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """vim/vi `-c` and `+` commands: `!cmd`, `:shell`, `:terminal`."""
    given = _values(args, "-c", "--cmd") + [a[1:] for a in args if a.startswith("+")]
    commands = [part.strip() for command in given for part in command.split("|")]
    findings: list[Finding | None] = []
    for command in commands:
        if not _VIM_BANG.match(command):
            continue
        body = re.sub(r"^:?\s*(?:silent!?\s+)?(?:r(?:ead)?\s*|w(?:rite)?\s*)?!", "", command, count=1)
        shell = body == command or not body.strip()
        findings.append(
            ask(f"{ctx.program} opens a shell ({command})")
            if shell
            else carried(body, ctx, f"{ctx.program} -c")
        )
    return worst(findings)


def _option_carrier(*names: str, attached: str = "", prefix: str = "") -> Checker:
    """A program whose options `names` hold a command (`zip -TT`, `man -H`, `tmux -c`)."""

    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        values = _values(args, *names, attached=attached)
        return worst(
            carried(v.removeprefix(prefix).rstrip("#").strip(), ctx, f"{ctx.program} {names[0]}")
            for v in values
            if v.startswith(prefix)
        )

    return check


def _check_gdb(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    commands = _values(args, "-ex", "--eval-command", "-iex")
    return worst(
        carried(re.sub(r"^(?:!|shell\s+)", "", c), ctx, "gdb -ex")
        for c in commands
        if re.match(r"!|shell\s", c)
    )


def _check_sql_shell(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """sqlite3 `.shell`/`.system`, mysql and psql `\\!` and `system`: commands run from the client."""
    pattern = re.compile(r"^\s*(?:\.shell|\.system|\\!|system)\s+(?P<cmd>.+)$", re.S)
    texts = [*args, *ctx.stdin]
    return worst(
        carried(m["cmd"], ctx, f"{ctx.program}'s shell escape") for m in map(pattern.match, texts) if m
    )


def _check_expect(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    scripts = _values(args, "-c")
    spawned = [m.group(1) for s in scripts for m in re.finditer(r"\bspawn\s+([^;\n]+)", s)]
    return worst(carried(s, ctx, "expect's spawn") for s in spawned)


def _check_emacs(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    code = " ".join(_values(args, "--eval", "-eval"))
    if re.search(
        r"\((?:term|ansi-term|shell|eshell|shell-command|async-shell-command|call-process|start-process)\b",
        code,
    ):
        return ask(f"{ctx.program} --eval runs programs or opens a shell")
    return None


def _check_editor_option(*names: str) -> Checker:
    """`pip config --editor X edit`, `gem open -e X`: an editor that is a command."""
    return _option_carrier(*names)


def _check_export(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    return carrier_variables([a for a in args if not a.startswith("-")], ctx)


CARRIER_RULES: dict[str, Checker] = {
    "git": _check_git,
    **dict.fromkeys(("ssh", "scp", "sftp"), _check_ssh_options),
    "rsync": _check_rsync,
    **dict.fromkeys(("tar", "gtar", "bsdtar"), _check_tar),
    **dict.fromkeys(("sed", "gsed"), _check_sed),
    **dict.fromkeys(("make", "gmake"), _check_make),
    **dict.fromkeys(("vim", "vi", "nvim", "view", "ex", "rvim", "gvim"), _check_editor),
    "zip": _option_carrier("-TT", "--unzip-command"),
    "man": _option_carrier("-H", "-P", "--pager", "--html", attached="-H"),
    "tmux": _option_carrier("-c"),
    "gdb": _check_gdb,
    **dict.fromkeys(("sqlite3", "mysql", "mariadb", "psql"), _check_sql_shell),
    "expect": _check_expect,
    "emacs": _check_emacs,
    "pip": _check_editor_option("--editor"),
    "pip3": _check_editor_option("--editor"),
    "gem": _check_editor_option("-e", "--editor"),
    **dict.fromkeys(("export", "declare", "typeset", "readonly"), _check_export),
}
