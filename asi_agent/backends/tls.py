"""Certificate checking for the HTTP clients, paid for only where a URL can use it.

Loading the system's trusted certificates (`ssl.create_default_context`) costs tens of milliseconds per
HTTP client, and a run makes three or four; a model server on plain HTTP never uses them. So a client
for a plain-HTTP URL gets a TLS context that trusts no certificate at all: checking stays on, and should
one of its connections ever turn to TLS, it fails closed, never open. Any other URL gets the default
check against the system's certificates.
"""

from __future__ import annotations

import functools
import ssl
from urllib.parse import urlsplit

__all__ = ["verify_for"]


def verify_for(url: str) -> ssl.SSLContext | bool:
    """The `verify` argument of an `httpx` / `httpx2` client that talks to `url`."""
    return _trusting_nothing() if urlsplit(url).scheme.lower() == "http" else True


@functools.cache
def _trusting_nothing() -> ssl.SSLContext:
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # hostname and certificate checks on, no CA loaded
