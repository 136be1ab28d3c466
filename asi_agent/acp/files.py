"""The editor's files: what the agent reads is the editor's buffer, and what it changes lands in it.

With the client's `fs` capabilities, the text of each file a call names is fetched from the editor
(`fs/read_text_file`, unsaved changes included) into `ToolContext.buffers` before the call is gated,
so the approval's diff, the tool and its stale-file check all see what the person sees. Writes keep
going through `commit_change` (atomic, journaled, undoable); the file's new text is then sent to the
editor (`fs/write_text_file`) so that the open buffer shows it. Without the capabilities the runtime's
own file tools work on the disk as they always do.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from acp import Client, RequestError
from acp.schema import FileSystemCapabilities

from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.textio import decode, is_binary

__all__ = ["EditorFiles"]

log = logging.getLogger(__name__)


class EditorFiles:
    """Reads and writes of one session that go through the editor, when it offers them."""

    def __init__(
        self, client: Client, session_id: str, ctx: ToolContext, fs: FileSystemCapabilities | None
    ) -> None:
        self.client, self.session_id, self.ctx = client, session_id, ctx
        self.reads = bool(fs and fs.read_text_file)
        self.writes = bool(fs and fs.write_text_file)

    async def fetch(self, paths: Iterable[Path]) -> None:
        """Take the editor's text of each existing project file in `paths` (kept until `forget`)."""
        if not self.reads:
            return
        for path in paths:
            if path in self.ctx.buffers or not path.is_file():
                continue
            try:
                found = await self.client.read_text_file(session_id=self.session_id, path=str(path))
            except (RequestError, ConnectionError) as exc:  # the disk's text is the next best
                log.warning("the editor did not give %s (%s); reading the file on disk", path, exc)
                continue
            self.ctx.buffers[path] = found.content

    def forget(self) -> None:
        """Drop the fetched texts: the editor's buffers may change before the next calls."""
        self.ctx.buffers.clear()

    async def push(self, paths: Iterable[Path]) -> None:
        """Send the new text of each changed file to the editor, so its buffer shows the change."""
        for path in paths:
            self.ctx.buffers.pop(path, None)
            if not self.writes or not path.is_file():
                continue  # a deleted file: the protocol has no way to delete one in the editor
            data = path.read_bytes()
            if is_binary(data):
                continue
            text = decode(data)[0]
            try:
                await self.client.write_text_file(session_id=self.session_id, path=str(path), content=text)
            except (RequestError, ConnectionError) as exc:
                log.warning("the editor did not take the new text of %s (%s); it is saved on disk", path, exc)
