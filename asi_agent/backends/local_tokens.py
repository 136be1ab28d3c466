"""Counting tokens with the in-process model's own tokenizer, over the standard library's HTTP client.

xllamacpp tokenizes only through its in-process server's `POST /tokenize`. One kept-alive `http.client`
connection to it answers in about a millisecond; the HTTP library the network backends use would first
take ~80 ms to import, on the way to the run's first model request.
"""

from __future__ import annotations

import http.client
import json
import threading
from urllib.parse import urlsplit

__all__ = ["LocalTokenizer"]

_TIMEOUT = 5.0


class LocalTokenizer:
    """`POST /tokenize` to the in-process server; None once it does not answer (the caller estimates)."""

    def __init__(self, address: str, key: str) -> None:
        parts = urlsplit(address if "://" in address else f"http://{address}")
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()  # called from worker threads; one connection, one request at a time
        self._failed = False

    def count(self, text: str) -> int | None:
        """Tokens of `text` (blocking), or None when the server does not tokenize."""
        if self._failed:
            return None
        body = json.dumps({"content": text}).encode("utf-8")
        with self._lock:
            try:
                tokens = self._post(body)
            except (OSError, ValueError, http.client.HTTPException):
                tokens = None
                self._drop()
        if not isinstance(tokens, list):
            self._failed = True
            return None
        return len(tokens)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._drop()

    def _post(self, body: bytes) -> object:
        if self._connection is None:
            self._connection = http.client.HTTPConnection(self._host, self._port, timeout=_TIMEOUT)
        self._connection.request("POST", "/tokenize", body=body, headers=self._headers)
        response = self._connection.getresponse()
        data = response.read()
        if response.status != 200:
            return None
        reply = json.loads(data)
        return reply.get("tokens") if isinstance(reply, dict) else None

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
