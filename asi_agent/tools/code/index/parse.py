"""Reading and parsing one file for the index, in this process or in a pool of worker processes.

Kept apart from the store so that worker processes import only what parsing needs.
"""

from __future__ import annotations

import codecs
import collections
import contextlib
import hashlib
import pickle
import struct
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, NamedTuple, cast

from asi_agent.tools.code.index.chunks import Chunk, identifier_parts, make_chunks
from asi_agent.tools.code.index.symbols import Ref, Symbol, extract, language_of
from asi_agent.tools.files.textio import is_binary

__all__ = ["MAX_FILE_BYTES", "Job", "Parsed", "Result", "Stamped", "parse_in_pool", "parse_job"]

MAX_FILE_BYTES = 1_000_000
"""Larger files (generated code, data, minified bundles) are recorded but not indexed."""
_FILES_PER_TASK = 16
"""Files a worker handles per round trip: fewer round trips without holding much in flight."""


class Job(NamedTuple):
    """A file whose time or size differs from the index; `known_sha256` is "" for a new file."""

    path: str
    rel: str
    mtime_ns: int
    size: int
    known_sha256: str


class Stamped(NamedTuple):
    """A file whose content is what the index already holds: only its stamp changes."""

    rel: str
    mtime_ns: int
    size: int
    sha256: str


class Parsed(NamedTuple):
    """A file's new content, parsed. `language` is "binary" or "large" for files not indexed."""

    rel: str
    mtime_ns: int
    size: int
    sha256: str
    language: str
    symbols: list[Symbol]
    refs: list[Ref]
    chunks: list[Chunk]
    parts: list[str]
    """The camelCase parts of each chunk's identifiers (its `parts` search column)."""


Result = Stamped | Parsed


def parse_job(job: Job) -> Result:
    """Read, hash and (when the hash is new) parse one file. A vanished file becomes an empty one."""
    if job.size > MAX_FILE_BYTES:
        return Parsed(job.rel, job.mtime_ns, job.size, "", "large", [], [], [], [])
    try:
        with open(job.path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        data = b""  # removed or unreadable since the walk: the next update removes or retries it
    sha = hashlib.sha256(data).hexdigest()
    if sha == job.known_sha256:
        return Stamped(job.rel, job.mtime_ns, job.size, sha)
    if is_binary(data) or len(data) > MAX_FILE_BYTES:
        return Parsed(job.rel, job.mtime_ns, job.size, sha, "binary", [], [], [], [])
    text = _decode(data)
    language = language_of(job.rel)
    symbols, refs = extract(text, language)
    chunks = make_chunks(text.splitlines(), symbols)
    parts = [identifier_parts(chunk.text) for chunk in chunks]
    return Parsed(job.rel, job.mtime_ns, job.size, sha, language, symbols, refs, chunks, parts)


def _decode(data: bytes) -> str:
    """UTF-8 (or UTF-16 when a byte-order mark says so); undecodable bytes become U+FFFD."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace").removeprefix("\ufeff")


def parse_in_pool(jobs: Sequence[Job], workers: int) -> Iterator[Result]:
    """Parse in `workers` child processes, each with at most two tasks in flight (bounded memory).

    The children are plain `python -m` processes fed through pipes rather than a multiprocessing pool:
    "fork" can deadlock a process that runs threads, and "spawn" re-runs the caller's main script.
    A child that fails has its task parsed here instead.
    """
    tasks = iter([list(jobs[i : i + _FILES_PER_TASK]) for i in range(0, len(jobs), _FILES_PER_TASK)])
    children = [_Child() for _ in range(workers)]
    queue: collections.deque[tuple[_Child, list[Job]]] = collections.deque()

    def feed(child: _Child) -> None:
        task = next(tasks, None)
        if task is not None:
            child.send(task)
            queue.append((child, task))

    try:
        for child in children * 2:
            feed(child)
        while queue:
            child, task = queue.popleft()
            results = child.receive() if child.alive else None
            if results is None:
                results = [parse_job(job) for job in task]
            if child.alive:
                feed(child)
            elif not any(c.alive for c in children):
                feed(child)  # every child is gone: go on in this process
            yield from results
    finally:
        for child in children:
            child.stop()


_BOOT = (
    "import sys; sys.path.append(sys.argv[1]); "
    "from asi_agent.tools.code.index.parse import _serve; _serve()"
)
"""A worker's start: the package's folder is put *last* on `sys.path`, after the standard library."""


class _Child:
    """One worker process speaking length-prefixed pickles over its stdin and stdout.

    Nothing of the project is imported: `-I` keeps the current folder, `PYTHON*` variables and the user's
    site-packages off `sys.path`, and the worker starts in the package's own folder, so a `pickle.py`,
    `json.py` or `encodings/` in the repository shadows nothing.
    """

    def __init__(self) -> None:
        package_parent = str(Path(__file__).resolve().parents[4])
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, package_parent],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=package_parent,
        )
        self.alive = True

    def send(self, task: list[Job]) -> bool:
        """Queue a task; False (and the child counts as gone) when it cannot be written."""
        if not self.alive:
            return False
        try:
            _write_frame(self.process.stdin, task)
        except OSError:
            self.alive = False
        return self.alive

    def receive(self) -> list[Result] | None:
        """The results of the oldest task sent, or None when the child died."""
        try:
            return cast(list[Result], _read_frame(self.process.stdout))
        except (OSError, EOFError, pickle.UnpicklingError):
            self.alive = False
            return None

    def stop(self) -> None:
        """Close its input (it exits at end of input); kill it if it does not."""
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def _write_frame(stream: IO[bytes] | None, value: object) -> None:
    if stream is None:
        raise OSError("no pipe")
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _read_frame(stream: IO[bytes] | None) -> object:
    if stream is None:
        raise OSError("no pipe")
    header = stream.read(8)
    if len(header) < 8:
        raise EOFError("the worker closed its output")
    (size,) = struct.unpack("<Q", header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the worker closed its output mid-result")
    return pickle.loads(data)


def _serve() -> None:
    """A worker's loop: read tasks until end of input, answer each with its results."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            task = cast(list[Job], _read_frame(stdin))
        except EOFError:
            return
        _write_frame(stdout, [parse_job(job) for job in task])


