"""The error of a request the gateway cannot take, shared by the readers of every API."""

from __future__ import annotations

__all__ = ["BadRequest"]


class BadRequest(ValueError):
    """A request the gateway cannot read; its message says which field and why (HTTP 400)."""
