"""Archives unpacked outside the project: `tar -xf x.tar -C /`, `unzip -d / x.zip`, `7z x -o/`, `cpio -i`.

Unpacking overwrites whatever the archive names, so the folder it unpacks into is the target: inside
the project or a scratch folder it is everyday work; anywhere else it asks and names the folder (yolo
refuses it). `tar -P` keeps absolute names, so it unpacks over `/`. After `cd /`, an archive unpacked
without a folder of its own lands where the `cd` went (`with_folder`).
"""

from __future__ import annotations

from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext, has_flag
from asi_agent.policy.danger_paths import Finding, ask, catastrophic, inside, scratch

__all__ = ["ARCHIVERS", "ARCHIVE_RULES", "with_folder"]

ARCHIVERS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio"})


def _into(program: str, folder: str) -> Finding | None:
    if not folder or scratch(folder) or (inside(folder) and not folder.startswith("..")):
        return None
    place = catastrophic(folder)
    where = place or folder
    return ask(f"{program} unpacks an archive over {where}, outside the project", folder)


def _tar_extracts(args: Sequence[str]) -> bool:
    first = args[0] if args else ""
    old_style = bool(first) and not first.startswith("-") and "x" in first and first.isalpha()
    short = [a for a in args if a.startswith("-") and not a.startswith("--")]
    return old_style or has_flag(short, "x") or any(a in ("--extract", "--get") for a in args)


def _tar_folder(args: Sequence[str]) -> str:
    for index, arg in enumerate(args):
        if arg in ("-C", "--directory") and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith("--directory="):
            return arg.split("=", 1)[1]
        if arg.startswith("-C") and len(arg) > 2:
            return arg[2:]
    return ""


def _check_tar(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    if not _tar_extracts(args):
        return None
    short = [a for a in args if a.startswith("-") and not a.startswith("--")]
    first = args[0] if args and not args[0].startswith("-") and args[0].isalpha() else ""
    if has_flag(short, "P") or "--absolute-names" in args or "P" in first:
        return ask(f"{ctx.program} -P unpacks files by their absolute names, over /", "/")
    return _into(ctx.program, _tar_folder(args))


def _check_unzip(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    if {"-l", "-v", "-t", "-c", "-p", "-Z"} & set(args):
        return None
    for index, arg in enumerate(args):
        if arg == "-d" and index + 1 < len(args):
            return _into("unzip", args[index + 1])
        if arg.startswith("-d") and len(arg) > 2 and not arg.startswith("--"):
            return _into("unzip", arg[2:])
    return None


def _check_7z(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    if not args or args[0] not in ("x", "e"):
        return None
    folder = next((a[2:] for a in args if a.startswith("-o")), "")
    return _into(ctx.program, folder)


def _check_cpio(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    short = [a for a in args if a.startswith("-") and not a.startswith("--")]
    if not (has_flag(short, "i") or "--extract" in args):
        return None
    for index, arg in enumerate(args):
        if arg in ("-D", "--directory") and index + 1 < len(args):
            return _into("cpio", args[index + 1])
        if arg.startswith("--directory="):
            return _into("cpio", arg.split("=", 1)[1])
    return None


def with_folder(program: str, tokens: list[str], cwd: str) -> list[str]:
    """The tokens of an unpacking run after `cd cwd`, given that folder explicitly when it has none."""
    argv_start = next((i for i, t in enumerate(tokens) if t.rsplit("/", 1)[-1] == program), None)
    if argv_start is None or program not in ARCHIVERS:
        return tokens
    args = tokens[argv_start + 1 :]
    if program in ("tar", "gtar", "bsdtar") and not _tar_folder(args):
        return [*tokens, f"--directory={cwd}"]
    if program == "unzip" and not any(a.startswith("-d") for a in args):
        return [*tokens, "-d", cwd]
    if program in ("7z", "7za", "7zz") and not any(a.startswith("-o") for a in args):
        return [*tokens, f"-o{cwd}"]
    if program == "cpio" and not any(
        a in ("-D", "--directory") or a.startswith("--directory=") for a in args
    ):
        return [*tokens, "-D", cwd]
    return tokens


ARCHIVE_RULES: dict[str, Checker] = {
    **dict.fromkeys(("tar", "gtar", "bsdtar"), _check_tar),
    "unzip": _check_unzip,
    **dict.fromkeys(("7z", "7za", "7zz"), _check_7z),
    "cpio": _check_cpio,
}
