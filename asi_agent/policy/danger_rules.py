"""Rules of the destructive-command classifier: what each program does that cannot be taken back.

Each checker reads one program's arguments (already unquoted, with wrappers such as `sudo` or `env`
removed by `danger.py`) and returns a `Finding`, or None when nothing in them is destructive.

How paths are judged (system folders, home, build artefacts, devices) lives in `danger_paths`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from asi_agent.policy.danger_paths import (
    CONTENTS,
    GLOB,
    STARTUP_FILE,
    Finding,
    Level,
    artefact,
    ask,
    block_device,
    catastrophic,
    inside,
    refuse,
    worst,
    write_target,
)

__all__ = ["Checker", "Finding", "Level", "RuleContext", "rule_for", "worst", "write_target"]


@dataclass(frozen=True, slots=True)
class RuleContext:
    """What a checker knows besides the arguments."""

    program: str
    """The program's name without its directory (`rm` for `/bin/rm`)."""
    from_input: bool
    """The operands come from input at run time (`xargs`, `find -exec`), so they cannot be judged."""
    script: Callable[[str], Finding]
    """Classifies a nested shell script (the string of `su -c`)."""
    exec_argv: Callable[[Sequence[str]], Finding]
    """Classifies a command run once per input item (the command of `find -exec`)."""


Checker = Callable[[Sequence[str], RuleContext], "Finding | None"]


def _split(args: Sequence[str]) -> tuple[list[str], list[str]]:
    """Options and operands; everything after `--` is an operand."""
    options: list[str] = []
    operands: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return options, operands + list(args[index + 1 :])
        (options if arg.startswith("-") and arg != "-" else operands).append(arg)
    return options, operands


def _has_flag(options: Iterable[str], letter: str, *long: str) -> bool:
    """A short flag, alone or combined (`-rf`), or one of the long spellings."""
    return any(o in long or (not o.startswith("--") and letter in o[1:]) for o in options)


def _check_rm(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = _split(args)
    if "--no-preserve-root" in options:
        return refuse("rm --no-preserve-root")
    recursive = _has_flag(options, "r", "--recursive") or _has_flag(options, "R")
    findings = [_rm_target(target, recursive) for target in operands]
    if ctx.from_input:
        findings.append(ask("deletes files whose names come from input (xargs, find -exec)"))
    return worst(findings)


def _rm_target(target: str, recursive: bool) -> Finding | None:
    place = catastrophic(target)
    contents = target.rstrip("/").rsplit("/", 1)[-1] in CONTENTS
    if place and (recursive or contents):
        return refuse(f"{'recursive ' if recursive else ''}delete of {place}")
    if not recursive:
        if inside(target) and not GLOB.search(target):
            return None
        return ask(f"deletes {target}: a glob or a path outside the project")
    return None if artefact(target) else ask(f"recursive delete of {target}")


def _check_find(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    starts = [arg for arg in args[: next((i for i, a in enumerate(args) if a[:1] in "-(!"), len(args))]]
    findings: list[Finding | None] = []
    if "-delete" in args:
        findings.append(ask("find -delete deletes every file it matches"))
    for index, arg in enumerate(args):
        if arg in ("-exec", "-execdir", "-ok", "-okdir"):
            command = args[index + 1 :]
            end = next((i for i, a in enumerate(command) if a in (";", "+")), len(command))
            findings.append(ctx.exec_argv(command[:end]))
    found = worst(findings)
    place = next((p for p in map(catastrophic, starts) if p), None)
    if found and found.level == "ask" and place:
        return refuse(f"find from {place} that deletes or rewrites what it finds")
    return found


def _check_mv(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = _split(args)
    if len(operands) < 2:
        return None
    for source in operands[:-1]:
        place = catastrophic(source)
        if place:
            return refuse(f"moving {place} away")
    dest = operands[-1]
    if dest == "/dev/null" or catastrophic(dest) in ("/", "your home folder"):
        return ask(f"mv onto {dest} can destroy what it moves")
    return _copy_dest(dest)


def _check_cp(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = _split(args)
    return _copy_dest(operands[-1]) if len(operands) >= 2 else None


def _copy_dest(dest: str) -> Finding | None:
    if block_device(dest):
        return refuse(f"copying onto the disk device {dest}")
    return ask(f"overwrites the startup or login file {dest}") if STARTUP_FILE.search(dest) else None


def _check_tee(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    return worst(write_target(target) for target in _split(args)[1])


_WORLD_WRITABLE = re.compile(r"^[0-7]?[0-7]{2}[2367]$|(?:^|,)[ugo]*[oa][ugo]*[+=][rxXst]*w")


def _check_chmod(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options = [a for a in args if re.fullmatch(r"-[cfvR]+|--[a-z-]+(?:=.*)?", a)]
    rest = [a for a in args if a not in options]
    recursive = _has_flag(options, "R", "--recursive")
    mode, targets = (rest[0], rest[1:]) if rest else ("", [])
    findings = [_recursive_on_system("chmod -R", t) for t in targets] if recursive else []
    if _WORLD_WRITABLE.search(mode):
        findings.append(ask(f"chmod {mode} makes files writable by everyone"))
    return worst(findings)


def _check_chown(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = _split(args)
    if not _has_flag(options, "R", "--recursive"):
        return None
    findings = [_recursive_on_system(f"{ctx.program} -R", t) for t in operands[1:]]
    return worst([*findings, ask(f"{ctx.program} -R changes the owner of a whole tree")])


def _recursive_on_system(what: str, target: str) -> Finding | None:
    place = catastrophic(target)
    return refuse(f"{what} on {place}") if place else None


def _check_dd(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    target = next((a[3:] for a in reversed(args) if a.startswith("of=")), None)
    if target is None or target == "/dev/null":
        return None
    if block_device(target):
        return refuse(f"dd writing to the disk device {target}")
    return ask(f"dd overwrites {target}")


def _check_device_tool(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """Formatting and shredding tools: refused on a disk device, asked on anything else."""
    device = next((a for a in args if block_device(a)), None)
    if device:
        return refuse(f"{ctx.program} on the disk device {device}")
    return ask(f"{ctx.program} destroys the contents of what it is given")


def _check_kill(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    targets = [a for i, a in enumerate(args) if i > 0 or not (a.startswith("-") and a != "-1")]
    if "-1" in targets or "1" in targets:
        return ask("kill of every process (or of init)")
    return None


def _check_crontab(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, _ = _split(args)
    if _has_flag(options, "r"):
        return refuse("crontab -r deletes every scheduled job")
    return None if _has_flag(options, "l") else ask("replaces or edits the crontab")


def _check_su(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    script = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "--command")), None)
    nested = ctx.script(script) if script is not None else None
    return worst([ask("su runs commands as another user"), nested])


def _always(reason: str) -> Checker:
    def check(args: Sequence[str], ctx: RuleContext) -> Finding:
        return ask(reason.format(program=ctx.program))

    return check


def _subcommands(*rules: tuple[str, str, str]) -> Checker:
    """Ask when the words (options left out) start with a rule's words and a rule's flag, if any, is given."""

    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        words = " ".join(a for a in args if not a.startswith("-")) + " "
        for prefix, flags, reason in rules:
            if words.startswith(prefix + " ") and (not flags or set(flags.split("|")) & set(args)):
                return ask(f"{ctx.program} {prefix}: {reason}")
        return None

    return check


_GIT_OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
_GIT_FORCE_PUSH = frozenset({"--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete"})


def _check_git(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in _GIT_OPTIONS_WITH_VALUE else 1
    if index >= len(args):
        return None
    check = _GIT.get(args[index])
    return check(args[index + 1 :]) if check else _GIT_WORDS(args[index:], ctx)


def _git_clean(args: Sequence[str]) -> Finding | None:
    options, _ = _split(args)
    if _has_flag(options, "f", "--force") and not _has_flag(options, "n", "--dry-run"):
        return ask("git clean -f deletes untracked files")
    return None


def _git_push(args: Sequence[str]) -> Finding | None:
    options, operands = _split(args)
    forced = any(o.split("=")[0] in _GIT_FORCE_PUSH for o in options) or _has_flag(options, "f")
    rewritten = any(len(ref) > 1 and ref[0] in "+:" for ref in operands[1:])
    if forced or rewritten or _has_flag(options, "d"):
        return ask("forced push (or remote delete) rewrites history others may depend on")
    return None


def _git_checkout(args: Sequence[str]) -> Finding | None:
    paths = "--" in args and args.index("--") < len(args) - 1
    if paths or "." in args or "-f" in args or "--force" in args:
        return ask("git checkout of paths discards uncommitted changes")
    return None


def _git_restore(args: Sequence[str]) -> Finding | None:
    staged_only = ("--staged" in args or "-S" in args) and not ("--worktree" in args or "-W" in args)
    return None if staged_only else ask("git restore discards uncommitted changes")


def _git_branch(args: Sequence[str]) -> Finding | None:
    options, _ = _split(args)
    delete = _has_flag(options, "d", "--delete")
    if _has_flag(options, "D") or (delete and _has_flag(options, "f", "--force")):
        return ask("git branch -D deletes a branch even when it is not merged")
    return None


_GIT: dict[str, Callable[[Sequence[str]], Finding | None]] = {
    "clean": _git_clean,
    "push": _git_push,
    "checkout": _git_checkout,
    "restore": _git_restore,
    "branch": _git_branch,
}
_GIT_WORDS = _subcommands(
    ("reset", "--hard", "discards uncommitted changes"),
    ("switch", "--discard-changes|-f|--force", "discards uncommitted changes"),
    ("stash drop", "", "deletes stashed work"),
    ("stash clear", "", "deletes all stashed work"),
    ("reflog expire", "", "deletes recovery points"),
    ("reflog delete", "", "deletes recovery points"),
    ("filter-branch", "", "rewrites the whole history"),
    ("filter-repo", "", "rewrites the whole history"),
)

_PUBLISH = (("publish", "", "publishes to the package registry"), ("unpublish", "", "removes a package"))
_UNINSTALL = _subcommands(("uninstall", "", "removes installed packages"))
_DOCKER = _subcommands(
    *((f"{kind} prune", "", "deletes unused objects") for kind in ("system", "image", "container", "volume")),
    ("builder prune", "", "deletes the build cache"),
    ("volume rm", "", "deletes volumes and their data"),
    ("compose down", "-v|--volumes", "deletes the project's volumes"),
    ("rm", "-f|--force", "kills and deletes running containers"),
    ("rmi", "-f|--force", "force-deletes images"),
)
_POWER = _always("{program} stops or restarts the machine")
_POWER_VERBS = ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate")

RULES: dict[str, Checker] = {
    "rm": _check_rm,
    "find": _check_find,
    "mv": _check_mv,
    "cp": _check_cp,
    "install": _check_cp,
    "tee": _check_tee,
    "chmod": _check_chmod,
    "chown": _check_chown,
    "chgrp": _check_chown,
    "dd": _check_dd,
    **dict.fromkeys(("shred", "wipefs", "mke2fs", "mkswap"), _check_device_tool),
    "truncate": _always("truncate cuts files short"),
    "kill": _check_kill,
    "killall": _always("{program} kills every process with that name"),
    "pkill": _always("{program} kills every process that matches"),
    **dict.fromkeys((*_POWER_VERBS[:3], "shutdown"), _POWER),
    "systemctl": _subcommands(*((verb, "", "stops or restarts the machine") for verb in _POWER_VERBS)),
    "init": _subcommands(("0", "", "stops the machine"), ("6", "", "restarts the machine")),
    "crontab": _check_crontab,
    "su": _check_su,
    "git": _check_git,
    **dict.fromkeys(("npm", "pnpm", "yarn"), _subcommands(*_PUBLISH)),
    **dict.fromkeys(("cargo", "poetry", "hatch", "flit"), _subcommands(_PUBLISH[0])),
    "twine": _subcommands(("upload", "", "publishes to the package registry")),
    "gem": _subcommands(("push", "", "publishes to the package registry")),
    "pip": _UNINSTALL,
    "pip3": _UNINSTALL,
    "docker": _DOCKER,
    "podman": _DOCKER,
    "gh": _subcommands(
        ("repo delete", "", "deletes a repository"), ("release delete", "", "deletes a release")
    ),
}


def rule_for(program: str) -> Checker | None:
    """The checker of `program`, if it has one (`mkfs.ext4` uses the `mkfs` family's)."""
    if program.startswith("mkfs"):
        return _check_device_tool
    return RULES.get(program)
