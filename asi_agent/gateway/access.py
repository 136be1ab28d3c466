"""Who may use a gateway that has no token: programs of this machine, not web pages.

Without `--host` the gateway listens on loopback and asks for no token, so anything that can reach
127.0.0.1 spends the upstream key behind it. A web page can: by a name of its own that it rebinds to
127.0.0.1 (DNS rebinding: the request then names that host), or by a cross-origin request from the
browser (which names the page's origin). Both are refused; a plain client (no `Origin`) naming a loopback
address, `localhost` or a name of one label (`gateway`: a name from the hosts file or the local search
domain, which no web page's DNS answers), and pages served from this machine, go on.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

__all__ = ["from_elsewhere"]

_USUAL = frozenset({"127.0.0.1", "localhost", "[::1]"})


def _local(name: str) -> bool:
    """Whether a host name (without port) means this machine."""
    name = name.lower().rstrip(".")
    if name in _USUAL or name.endswith(".localhost"):
        return True
    if name and "." not in name and ":" not in name:
        return True  # one label: not a name a page's own DNS server can answer for
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """The name of a `Host` header's value, without its port (`[::1]:8080` → `[::1]`)."""
    value = value.strip()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def from_elsewhere(host: str | None, origin: str | None) -> str | None:
    """Why a request without a token must be refused (it names another host, or a page of another
    origin sent it), or None when it comes from this machine."""
    if host is not None and not _local(_host_name(host)):
        return f"the request names the host {host!r}; without a token this gateway serves loopback names only"
    if origin is not None:
        name = urlsplit(origin.strip()).hostname
        if name is None or not _local(name):
            return f"a web page of {origin!r} sent the request; without a token only this machine's pages may"
    return None
