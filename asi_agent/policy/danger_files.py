"""Rules for programs that delete, move, overwrite or re-permission files.

Every finding names its targets (the paths as written) so that `yolo` can refuse those that resolve
outside the project.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext, always, has_flag, split
from asi_agent.policy.danger_paths import (
    CONTENTS,
    GLOB,
    STARTUP_FILE,
    UNKNOWN,
    Finding,
    artefact,
    ask,
    block_device,
    catastrophic,
    critical_file,
    disposable,
    disposable_name,
    inside,
    refuse,
    scratch,
    worst,
    write_target,
)

__all__ = ["FILE_RULES"]


def _check_rm(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = split(args)
    if "--no-preserve-root" in options:
        return refuse("rm --no-preserve-root")
    recursive = ctx.program == "rimraf" or has_flag(options, "r", "--recursive") or has_flag(options, "R")
    findings = [_rm_target(target, recursive) for target in operands]
    if ctx.from_input:
        findings.append(ask("deletes files whose names come from input (xargs, find -exec)", UNKNOWN))
    return worst(findings)


def _rm_target(target: str, recursive: bool) -> Finding | None:
    place = catastrophic(target)
    contents = target.rstrip("/").rsplit("/", 1)[-1] in CONTENTS
    if place and (recursive or contents):
        return refuse(f"{'recursive ' if recursive else ''}delete of {place}")
    critical = critical_file(target)
    if critical:
        return refuse(f"delete of the system file {critical}")
    if not recursive:
        if (inside(target) and not GLOB.search(target)) or disposable(target) or scratch(target):
            return None
        return ask(f"deletes {target}: a glob or a path outside the project", target)
    safe = artefact(target) or scratch(target) or disposable(target)
    return None if safe else ask(f"recursive delete of {target}", target)


_FIND_ACTIONS = ("-exec", "-execdir", "-ok", "-okdir")
_FIND_WRITES = ("-fprint", "-fprint0", "-fprintf", "-fls")


def _check_find(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    end = next((i for i, a in enumerate(args) if a[:1] in "-(!"), len(args))
    starts = list(args[:end]) or ["."]
    findings: list[Finding | None] = []
    cleanup = _finds_only_artefacts(args, starts)
    if "-delete" in args and not cleanup:
        findings.append(ask("find -delete deletes every file it matches", *starts))
    for index, arg in enumerate(args):
        if arg in _FIND_ACTIONS:
            command = args[index + 1 :]
            if cleanup and command[:1] and command[0].rsplit("/", 1)[-1] in ("rm", "rmdir", "unlink"):
                continue
            stop = next((i for i, a in enumerate(command) if a in (";", "+")), len(command))
            run = ctx.exec_argv(command[:stop])
            findings.append(run.with_targets(tuple(starts)) if run.level != "safe" else None)
        elif arg in _FIND_WRITES and index + 1 < len(args):
            findings.append(write_target(args[index + 1]))
    found = worst(findings)
    place = next((p for p in map(catastrophic, starts) if p), None)
    if found and found.level == "ask" and place:
        return refuse(f"find from {place} that deletes or rewrites what it finds")
    return found


def _finds_only_artefacts(args: Sequence[str], starts: Sequence[str]) -> bool:
    """`find . -name '*.pyc' -delete`, `find build -delete`: only build artefacts or logs are deleted."""
    if all(artefact(s) for s in starts):
        return True  # everything under `build/` or `node_modules/` is rebuilt
    names = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-name", "-iname")]
    if not names or {"-o", "-or", "-not", "!"} & set(args) or not all(inside(s) for s in starts):
        return False
    return all(disposable_name(name) for name in names)


def _check_fd(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`fd -x CMD` / `fd -X CMD` run a command on every match."""
    for index, arg in enumerate(args):
        if arg in ("-x", "--exec", "-X", "--exec-batch"):
            found = ctx.exec_argv(args[index + 1 :])
            return found if found.level != "safe" else None
    return None


def _check_mv(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = split(args)
    if len(operands) < 2:
        return None
    for source in operands[:-1]:
        place = catastrophic(source) or critical_file(source)
        if place:
            return refuse(f"moving {place} away")
        if source.rstrip("/").rsplit("/", 1)[-1] == ".git":
            return ask("moving .git away takes the project's history with it", source)
    dest = operands[-1]
    if dest == "/dev/null" or catastrophic(dest) in ("/", "your home folder"):
        return ask(f"mv onto {dest} can destroy what it moves", *operands)
    if any(GLOB.search(s) for s in operands[:-1]) and not inside(dest):
        return ask(f"mv of a glob out of the project into {dest} (a missing folder overwrites files)", dest)
    outside = [s for s in operands[:-1] if not inside(s) and not s.startswith(("/tmp/", "$TMPDIR"))]
    moved = ask(f"moves {outside[0]}, outside the project, away", *outside) if outside else None
    return worst([_copy_dest(dest), moved])


def _check_cp(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = split(args)
    return _copy_dest(operands[-1]) if len(operands) >= 2 else None


def _copy_dest(dest: str) -> Finding | None:
    if block_device(dest):
        return refuse(f"copying onto the disk device {dest}")
    critical = critical_file(dest)
    if critical:
        return refuse(f"overwriting the system file {critical}")
    if STARTUP_FILE.search(dest):
        return ask(f"overwrites the startup or login file {dest}", dest)
    if dest.startswith(("/etc/", "/usr/", "/boot/", "/lib", "/bin/", "/sbin/", "/var/lib/")):
        return ask(f"overwrites system files in {dest}", dest)
    return None


def _check_ln(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = split(args)
    if not has_flag(options, "f", "--force") or len(operands) < 2:
        return None
    return _copy_dest(operands[-1]) or write_target(operands[-1])


def _check_tee(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    return worst(write_target(target) for target in split(args)[1])


_WORLD_WRITABLE = re.compile(r"^[0-7]?[0-7]{2}[2367]$|(?:^|,)[ugo]*[oa][ugo]*[+=][rxXst]*w")


def _check_chmod(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options = [a for a in args if re.fullmatch(r"-[cfvR]+|--[a-z-]+(?:=.*)?", a)]
    rest = [a for a in args if a not in options]
    recursive = has_flag(options, "R", "--recursive")
    mode, targets = (rest[0], rest[1:]) if rest else ("", [])
    findings = [_recursive_on_system("chmod -R", t) for t in targets] if recursive else []
    findings += [_on_critical("chmod", t) for t in targets]
    if _WORLD_WRITABLE.search(mode) or (recursive and mode in ("000", "0000", "a-rwx")):
        findings.append(ask(f"chmod {mode} makes files writable by everyone (or unusable)", *targets))
    return worst(findings)


def _check_chown(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = split(args)
    critical = worst(_on_critical(ctx.program, t) for t in operands[1:])
    if not has_flag(options, "R", "--recursive"):
        return critical
    findings = [_recursive_on_system(f"{ctx.program} -R", t) for t in operands[1:]]
    return worst(
        [*findings, critical, ask(f"{ctx.program} -R changes the owner of a whole tree", *operands[1:])]
    )


def _recursive_on_system(what: str, target: str) -> Finding | None:
    place = catastrophic(target)
    return refuse(f"{what} on {place}") if place else None


def _on_critical(what: str, target: str) -> Finding | None:
    critical = critical_file(target)
    return ask(f"{what} of the system file {critical}", target) if critical else None


def _check_dd(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    target = next((a[3:] for a in reversed(args) if a.startswith("of=")), None)
    if target is None or target == "/dev/null":
        return None
    if block_device(target):
        return refuse(f"dd writing to the disk device {target}")
    return write_target(target) or ask(f"dd overwrites {target}", target)


def _check_truncate(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = split([a for a in args if not re.fullmatch(r"-s|--size", a)])
    targets = [t for t in operands if not re.fullmatch(r"[-+<>/%]?\d+[KMGTPE]?i?B?", t)]
    return worst([*(write_target(t) for t in targets), ask("truncate cuts files short", *targets)])


def _check_shred(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    _, operands = split(args)
    device = next((a for a in operands if block_device(a)), None)
    if device:
        return refuse(f"{ctx.program} on the disk device {device}")
    return ask(f"{ctx.program} destroys the contents of what it is given", *operands)


def _check_rsync(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = split(args)
    deletes = any(o.startswith(("--delete", "--remove-source-files")) for o in options)
    if not deletes or not operands:
        return None
    dest = operands[-1]
    place = catastrophic(dest)
    if place:
        return refuse(f"rsync --delete onto {place}")
    return ask("rsync --delete removes files at the destination that the source lacks", dest)


_PARALLEL_OPTIONS = frozenset(
    {"-j", "-S", "--jobs", "--sshlogin", "--results", "--joblog", "-a", "--arg-file"}
)


def _check_parallel(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """GNU parallel: a template run for each input after `:::` (or read from input), or inputs as commands."""
    marker = args.index(":::") if ":::" in args else len(args)
    index = 0
    while index < marker and args[index].startswith("-"):
        index += 2 if args[index] in _PARALLEL_OPTIONS else 1
    template, inputs = list(args[index:marker]), [a for a in args[marker + 1 :] if a not in (":::", "::::")]
    if not inputs and ctx.stdin:
        inputs = [line.strip() for text in ctx.stdin for line in text.splitlines() if line.strip()]
    if not template:
        return worst(ctx.script(command) for command in inputs)
    if not inputs or ctx.command is None:
        unknown = ctx.exec_argv(template)
        return unknown if unknown.level != "safe" else None
    run = ctx.command
    placed = any("{}" in word for word in template)
    commands = [[w.replace("{}", item) for w in template] if placed else [*template, item] for item in inputs]
    found = worst(run(words) for words in commands)
    return found if found and found.level != "safe" else None


def _rclone(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    words = [a for a in args if not a.startswith("-")]
    if words[:1] and words[0] in ("purge", "delete", "deletefile", "sync", "rmdirs", "cleanup"):
        return always(f"rclone {words[0]} deletes files at the destination", *words[-1:])(args, ctx)
    return None


FILE_RULES: dict[str, Checker] = {
    "rm": _check_rm,
    "rimraf": _check_rm,
    "find": _check_find,
    "fd": _check_fd,
    "fdfind": _check_fd,
    "mv": _check_mv,
    "cp": _check_cp,
    "install": _check_cp,
    "ln": _check_ln,
    "tee": _check_tee,
    "chmod": _check_chmod,
    "chown": _check_chown,
    "chgrp": _check_chown,
    "dd": _check_dd,
    "truncate": _check_truncate,
    "shred": _check_shred,
    "srm": _check_shred,
    "wipe": _check_shred,
    "rsync": _check_rsync,
    "unlink": lambda args, ctx: worst(_rm_target(a, False) for a in split(args)[1]),
    "rmdir": lambda args, ctx: worst(_rm_target(a, False) for a in split(args)[1] if not inside(a)),
    "rclone": _rclone,
    "parallel": _check_parallel,
}
