"""File operations beneath a folder that a symbolic link swapped in at any moment cannot lead out of.

`resolve_in_project` turns the model's path into a real path inside the project — following the project's
own links as far as they stay inside — but it does so by name, at one moment. A command running in the
background can replace a folder on that path with a link to somewhere else right after. So every
operation a tool makes on the project (read, write, create, delete, move to the trash, undo) starts here
from a descriptor of the base folder (the project root, or a folder the policy allows) and walks the
already-resolved path one component at a time **following no link at all**: one
`openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)` where the kernel has it (Linux 5.6
and later), else `openat` with `O_NOFOLLOW` (and `O_DIRECTORY` for folders) per component. The last step
(open, atomic replace, rename, unlink) is made relative to the parent folder's descriptor, so it acts on
the folder that was walked, whatever its name points to by then. A link met on the way raises
`LinkOnPathError` (a `ToolError`: the model may call again) and nothing is written.

A folder that is *moved* (not replaced) while a descriptor is held stays the same folder: a write can then
land where the mover put it — a place the mover could write anyway, so nothing is gained by it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from asi_agent.exceptions import ToolError

__all__ = [
    "Anchored",
    "LinkOnPathError",
    "anchor",
    "listdir",
    "lstat",
    "move",
    "open_regular",
    "read_bytes",
    "remove_write_temps",
    "rmdir",
    "unlink",
    "write_atomic",
]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_RESOLVE_NO_SYMLINKS, _RESOLVE_NO_MAGICLINKS, _RESOLVE_BENEATH = 0x04, 0x02, 0x08
_SYS_OPENAT2 = 437  # the same number on every Linux architecture (the unified table of 5.x)


class LinkOnPathError(ToolError):
    """A symbolic link (or a path leaving the base) appeared on a path that was resolved without one."""

    def __init__(self, shown: str) -> None:
        super().__init__(
            f"{shown} is (or lies under) a symbolic link that was put there after the path was checked — "
            "possibly one leading outside the project; nothing was written or read. Check the path with "
            "list_directory and call again with the real path of the file inside the project"
        )


@dataclass(frozen=True, slots=True)
class Anchored:
    """A path held as a base folder (real, resolved) plus the names below it, walked with no link."""

    base: Path
    parts: tuple[str, ...]

    def __post_init__(self) -> None:
        # The walk must only ever go down: no component may walk up or mean nothing.
        if any(part in ("", ".", "..") or "/" in part or "\x00" in part for part in self.parts):
            raise ToolError(f"{self.shown()} is not a resolved path; give a plain path inside the project")

    @property
    def path(self) -> Path:
        """The path by name, for messages and maps; never opened as such."""
        return self.base.joinpath(*self.parts)

    @property
    def name(self) -> str:
        """The last component; an IsADirectoryError for the base itself."""
        if not self.parts:
            raise IsADirectoryError(errno.EISDIR, "is the base folder, not a file", str(self.base))
        return self.parts[-1]

    def sibling(self, name: str) -> Anchored:
        """The entry `name` in the same folder."""
        return Anchored(self.base, (*self.parts[:-1], name))

    def shown(self) -> str:
        """The path relative to the base, as the model sees it."""
        return "/".join(self.parts) or "."


def anchor(path: Path, bases: Sequence[Path]) -> Anchored:
    """`path` (absolute) below the first of `bases` that holds it; else below its own parent folder.

    A base is taken as written when the path starts with it (its own links, if any, are the person's),
    else resolved; string prefixes, because this runs on every file operation."""
    text = os.fspath(path)
    for base in bases:
        if (parts := _below(text, os.fspath(base))) is not None:
            return Anchored(base, parts)
    for base in bases:
        real = base.resolve()
        if (parts := _below(text, os.fspath(real))) is not None:
            return Anchored(real, parts)
    return Anchored(path.parent.resolve(), (path.name,) if path.name else ())


def _below(path: str, base: str) -> tuple[str, ...] | None:
    """The components of `path` under `base`, None when it is not under it."""
    if path == base:
        return ()
    prefix = base if base.endswith("/") else base + "/"
    return tuple(path[len(prefix) :].split("/")) if path.startswith(prefix) else None


# -- walking --------------------------------------------------------------------------------------


_openat2: Callable[[int, str, int, int], int] | None = None
_openat2_probed = False


def _load_openat2() -> Callable[[int, str, int, int], int] | None:
    """The openat2 system call through ctypes, or None where the kernel or a seccomp filter lacks it.

    `ASI_NO_OPENAT2` set (to anything) in the environment makes the walk use `openat` per component
    even where openat2 exists, for a kernel whose openat2 misbehaves (and for testing that walk)."""
    global _openat2, _openat2_probed  # noqa: PLW0603 - probed once per process, on first use
    if os.environ.get("ASI_NO_OPENAT2"):
        return None
    if _openat2_probed:
        return _openat2
    _openat2_probed = True
    if sys.platform != "linux":
        return None
    import ctypes  # noqa: PLC0415 - only the file tools need it, and only once

    class OpenHow(ctypes.Structure):
        _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]

    try:
        syscall = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long
    resolve = _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS

    def call(dir_fd: int, rel: str, flags: int, mode: int) -> int:
        how = OpenHow(flags, mode, resolve)
        fd = syscall(
            ctypes.c_long(_SYS_OPENAT2), ctypes.c_int(dir_fd), ctypes.c_char_p(os.fsencode(rel)),
            ctypes.byref(how), ctypes.c_size_t(ctypes.sizeof(how)),
        )  # fmt: skip
        if fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code), rel)
        return int(fd)

    probe = os.open("/", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.close(call(probe, ".", _DIR_FLAGS, 0))
    except OSError:
        return None  # ENOSYS (old kernel) or EPERM (a seccomp filter): walk component by component
    finally:
        os.close(probe)
    _openat2 = call
    return _openat2


def _open_base(anchored: Anchored) -> int:
    """A descriptor of the base folder (the project root: the person chose it, its own links are fine)."""
    return os.open(anchored.base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def _walk(base_fd: int, parts: Sequence[str], anchored: Anchored, *, create: bool) -> int:
    """The folder `parts` below `base_fd` as a descriptor, no link followed; missing ones made if `create`."""
    if not parts:
        return os.dup(base_fd)
    openat2 = _load_openat2()
    if openat2 is not None:
        try:
            # Without O_NOFOLLOW: RESOLVE_NO_SYMLINKS then refuses a trailing link too (ELOOP).
            return openat2(base_fd, "/".join(parts), _DIR_FLAGS & ~os.O_NOFOLLOW, 0)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EXDEV):
                raise LinkOnPathError(anchored.shown()) from exc
            # ENOENT: folders to make; ENOTDIR: a file on the path, or a swap in flight — the walk tells.
            if not (exc.errno == errno.ENOENT and create) and exc.errno != errno.ENOTDIR:
                raise
    fd = os.dup(base_fd)
    try:
        for part in parts:
            fd = _step(fd, part, anchored, create=create)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _step(fd: int, part: str, anchored: Anchored, *, create: bool) -> int:
    """Open the folder `part` below `fd` (closing `fd`), never through a link."""
    try:
        try:
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o777, dir_fd=fd)
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        # O_DIRECTORY | O_NOFOLLOW on a link fails with ENOTDIR, like a plain file: tell them apart. A
        # folder there now was a link a moment ago (a swap in flight): that is the link's error too.
        if exc.errno in (errno.ENOTDIR, errno.ELOOP) and not _is_file(fd, part):
            raise LinkOnPathError(anchored.shown()) from exc
        raise
    os.close(fd)
    return child


def _is_file(dir_fd: int, name: str) -> bool:
    """Whether `name` is (now) neither a folder nor a link: a real NotADirectoryError."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return True
    return not (stat.S_ISLNK(mode) or stat.S_ISDIR(mode))


@contextlib.contextmanager
def _parent(anchored: Anchored, *, create: bool = False) -> Iterator[int]:
    """A descriptor of the folder holding `anchored`, closed afterwards."""
    _ = anchored.name  # the base itself has no parent to act in: IsADirectoryError
    base_fd = _open_base(anchored)
    try:
        fd = _walk(base_fd, anchored.parts[:-1], anchored, create=create)
    finally:
        os.close(base_fd)
    try:
        yield fd
    finally:
        os.close(fd)


def _open_in(dir_fd: int, anchored: Anchored, flags: int, mode: int = 0o666) -> int:
    """Open the last component in `dir_fd` with O_NOFOLLOW; a link there is a LinkOnPathError."""
    try:
        return os.open(anchored.name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise LinkOnPathError(anchored.shown()) from exc
        raise


# -- operations -----------------------------------------------------------------------------------


def open_regular(anchored: Anchored) -> int:
    """A read-only descriptor of a regular file (FileNotFoundError, IsADirectoryError, LinkOnPathError)."""
    if not anchored.parts:
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(anchored.base))
    with _parent(anchored) as dir_fd:
        # O_NONBLOCK: a FIFO put in the file's place must not hang the call.
        fd = _open_in(dir_fd, anchored, os.O_RDONLY | os.O_NONBLOCK)
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode):
        os.set_blocking(fd, True)
        return fd
    os.close(fd)
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(anchored.path))
    raise OSError(errno.EINVAL, "not a regular file", str(anchored.path))


def read_bytes(anchored: Anchored) -> bytes:
    """The whole content of a regular file."""
    with os.fdopen(open_regular(anchored), "rb") as handle:
        return handle.read()


def lstat(anchored: Anchored) -> os.stat_result | None:
    """The entry's own status (a link is not followed), None when nothing is there."""
    if not anchored.parts:
        return os.stat(anchored.base)
    try:
        with _parent(anchored) as dir_fd:
            return os.stat(anchored.name, dir_fd=dir_fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None


def listdir(anchored: Anchored) -> list[str]:
    """The names in the folder `anchored` (FileNotFoundError, NotADirectoryError, LinkOnPathError)."""
    base_fd = _open_base(anchored)
    try:
        fd = _walk(base_fd, anchored.parts, anchored, create=False)
    finally:
        os.close(base_fd)
    try:
        return os.listdir(fd)
    finally:
        os.close(fd)


def write_atomic(anchored: Anchored, data: bytes, mode: int | None = None) -> os.stat_result:
    """Replace the file with `data` atomically, making missing folders; `mode` None keeps the umask default.

    A temporary file `.<name>.<8 hex>.tmp` is created (O_EXCL) in the parent folder's descriptor,
    written, fsynced and renamed over the name in that same folder; then the folder is fsynced.
    Returns the written file's status (taken from its descriptor: no second walk).
    """
    with _parent(anchored, create=True) as dir_fd:
        tmp = anchored.sibling(f".{anchored.name}.{secrets.token_hex(4)}.tmp")
        # 0o666 lets the process umask decide the mode of new files, as any editor would.
        fd = _open_in(dir_fd, tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if mode is not None:
                    os.fchmod(handle.fileno(), mode)
                os.fsync(handle.fileno())
                written = os.fstat(handle.fileno())
            os.replace(tmp.name, anchored.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp.name, dir_fd=dir_fd)
            raise
        _fsync(dir_fd)
    return written


def unlink(anchored: Anchored) -> None:
    """Remove the entry itself (a link there is removed, never followed)."""
    with _parent(anchored) as dir_fd:
        os.unlink(anchored.name, dir_fd=dir_fd)


def rmdir(anchored: Anchored) -> None:
    """Remove an empty folder (OSError when it is not empty, not a folder, or a link)."""
    with _parent(anchored) as dir_fd:
        os.rmdir(anchored.name, dir_fd=dir_fd)


def move(src: Anchored, dst: Anchored) -> None:
    """Rename a regular file to `dst` (folders made); across file systems, copy it and remove the source."""
    with _parent(src) as src_fd, _parent(dst, create=True) as dst_fd:
        found = os.stat(src.name, dir_fd=src_fd, follow_symlinks=False)
        if stat.S_ISLNK(found.st_mode):
            raise LinkOnPathError(src.shown())
        try:
            os.rename(src.name, dst.name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            data = read_bytes(src)
            write_atomic(dst, data, stat.S_IMODE(found.st_mode))
            os.unlink(src.name, dir_fd=src_fd)
            return
        _fsync(dst_fd)
        _fsync(src_fd)


_TEMP_TAIL = re.compile(r"\.[0-9a-f]{8}\.tmp")


def remove_write_temps(anchored: Anchored) -> list[Path]:
    """Delete the temporary files a killed `write_atomic(anchored, ...)` left beside it; returns them."""
    removed: list[Path] = []
    head = f".{anchored.name}"
    try:
        with _parent(anchored) as dir_fd:
            for name in os.listdir(dir_fd):
                if name.startswith(head) and _TEMP_TAIL.fullmatch(name, len(head)):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(name, dir_fd=dir_fd)
                        removed.append(anchored.sibling(name).path)
    except (FileNotFoundError, NotADirectoryError, LinkOnPathError):
        return removed
    return removed


def _fsync(dir_fd: int) -> None:
    """Make a rename durable; some file systems refuse to fsync folders, which is harmless."""
    with contextlib.suppress(OSError):
        os.fsync(dir_fd)
