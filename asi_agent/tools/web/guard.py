"""The SSRF guard: a web request reaches only public addresses, checked after DNS resolution.

Loopback, private (RFC 1918, unique-local), link-local (169.254/16: the cloud metadata services), shared
(100.64/10), multicast, reserved and unspecified addresses are refused, and so are the metadata host names
— unless the configuration allows private hosts (`web.allow_private_hosts`) or names the host and port
(`web.allowed_hosts`). The request is then sent to the very address that was checked (the host name kept
in the `Host` header and for TLS), so a second DNS answer cannot point it elsewhere; every redirect goes
through the guard again.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Collection
from dataclasses import dataclass

import httpx

from asi_agent.exceptions import ToolError

__all__ = ["BlockedAddressError", "Target", "check_target"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT; Alibaba's metadata is 100.100.100.200
_METADATA_NAMES = frozenset({"metadata.google.internal", "metadata", "instance-data"})
_HOW = (
    "private hosts are refused unless `web.allow_private_hosts = true` (or the host and port in "
    "`web.allowed_hosts`) is set in the person's configuration"
)


class BlockedAddressError(ToolError):
    """A URL whose host is (or resolves to) an address the guard refuses."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where to send a request: the checked address, and the host name to present."""

    url: httpx.URL
    """The URL with the checked address as its host."""
    host: str
    """The `Host` header's value (the name and, when not the default, the port)."""
    server_name: str
    """The name TLS checks the certificate against."""


def _why_private(address: IPAddress) -> str | None:
    """What kind of address a request must not reach, or None when it is public."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    checks = (
        (address.is_loopback, "a loopback address"),
        (address.is_link_local, "a link-local address (cloud metadata lives there)"),
        (address.is_unspecified, "an unspecified address"),
        (address.is_multicast, "a multicast address"),
        (isinstance(address, ipaddress.IPv4Address) and address in _SHARED, "a shared (carrier NAT) address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
    )
    return next((why for hit, why in checks if hit), None)


async def _addresses(host: str, port: int) -> list[IPAddress]:
    """The addresses `host` stands for: itself when it is a literal, else what DNS answers."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise ToolError(f"cannot resolve {host}: {exc}; check the URL's host name") from exc
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]


async def check_target(url: httpx.URL, *, allow_private: bool, allowed: Collection[str] = ()) -> Target:
    """The address to send `url` to, after the guard; BlockedAddressError when it must not be reached."""
    if url.scheme not in ("http", "https") or not url.host:
        raise ToolError(f"{url} is not an http(s) URL; web_fetch reads http:// and https:// pages only")
    port = url.port or (443 if url.scheme == "https" else 80)
    host = url.host.rstrip(".").lower()
    shown = f"{host}:{url.port}" if url.port else host
    addresses = await _addresses(host, port)
    if not addresses:
        raise ToolError(f"{host} has no address; check the URL")
    exempt = allow_private or shown in allowed or f"{host}:{port}" in allowed
    if not exempt:
        if host in _METADATA_NAMES:
            raise BlockedAddressError(f"refused: {host} is a cloud metadata service; {_HOW}")
        for address in addresses:
            why = _why_private(address)
            if why:
                said = "is" if str(address) == host else f"resolves to {address},"
                raise BlockedAddressError(f"refused: {shown} {said} {why}; {_HOW}")
    chosen = str(addresses[0])
    pinned = url.copy_with(host=chosen)
    return Target(pinned, shown if url.port else host, host)
