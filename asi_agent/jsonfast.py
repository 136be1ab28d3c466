"""JSON on the hot paths of the gateway and the HTTP backends (request bodies, replies, stream chunks):
orjson when it is installed (the `gateway` extra), the standard library otherwise.

Either way a value reads and writes the same: what orjson refuses to read (`NaN`, a lone surrogate, very
deep nesting) is read by `json` (which raises the error it always did on what is not JSON), and what it
cannot write (an integer past 64 bits, a key that is not a string) is written by `json`.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson

    _ORJSON = True
except ImportError:  # the gateway extra is not installed
    _ORJSON = False

__all__ = ["compact", "compact_text", "dumps", "loads"]

_COMPACT = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
_DUMPS = json.JSONEncoder(ensure_ascii=False).encode


def dumps(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)`, the same text, without building an encoder each time."""
    return _DUMPS(value)


def loads(data: bytes | str) -> Any:
    """`json.loads(data)`; raises `json.JSONDecodeError` on what is not JSON."""
    if _ORJSON:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


def compact(value: Any) -> bytes:
    """`value` as UTF-8 JSON without spaces or ASCII escapes (as Starlette's `JSONResponse` writes it); a
    float that is not a number is written `null` by orjson (the standard library refuses it)."""
    if _ORJSON:
        try:
            return orjson.dumps(value)
        except TypeError:
            pass
    return _COMPACT(value).encode("utf-8")


def compact_text(value: Any) -> str:
    """`compact(value)` as text: an event stream's `data:` lines, as the APIs write them (no spaces)."""
    if _ORJSON:
        try:
            return orjson.dumps(value).decode("utf-8")
        except TypeError:
            pass
    return _COMPACT(value)
