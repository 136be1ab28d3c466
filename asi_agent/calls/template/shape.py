"""How a model writes a call, as learned from its chat template: the literal pieces around the name and
each argument, and how several calls are separated.

`CallShape` is plain data (it is cached per template hash); `learn.py` derives it, `reader.py` reads
replies with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ArgStyle", "CallShape"]

ArgStyle = Literal["named-json", "json", "pairs"]
"""`named-json`: one JSON object holds the name and the arguments (`{"name": …, "arguments": {…}}`);
`json`: the name is written outside a JSON arguments object; `pairs`: each argument is written on its
own between markers (`<arg_key>K</arg_key><arg_value>V</arg_value>`, `K:<|"|>V<|"|>`, …)."""


@dataclass(frozen=True, slots=True)
class CallShape:
    """The pieces of text a template writes around calls. Whitespace at either end of a piece is not
    significant when reading (templates and models differ in line breaks)."""

    style: ArgStyle
    call_open: str
    """Before each call (before the name, or before the JSON object of `named-json`)."""
    call_close: str = ""
    """After each call's arguments."""
    wrap_open: str = ""
    """Before the first call only (a section token); optional when reading."""
    wrap_close: str = ""
    """After the last call only; optional when reading."""
    name_close: str = ""
    """Between the name and the arguments (`json`, `pairs`)."""
    key_open: str = ""
    """Before each argument's name (`pairs`)."""
    pair_sep: str = ""
    """Between two arguments (`pairs`), besides `key_open`."""
    key_close: str = ""
    """Between an argument's name and its value (`pairs`)."""
    string_open: str = ""
    """Opens a text value after `key_close` (`pairs`; empty when text is written like other values)."""
    other_open: str = ""
    """Opens a non-text value after `key_close` (`pairs`)."""
    string_close: str = ""
    """Closes a text value (`pairs`)."""
    other_close: str = ""
    """Closes a non-text value (`pairs`; empty when the next separator ends it)."""
    template_hash: str = ""
    """The SHA-256 of the template it was learned from."""
    family: str = ""
    """The model family, for shapes shipped with asi-agent (learned from that family's template)."""

    @property
    def name(self) -> str:
        """The dialect name calls read with this shape carry."""
        return f"template:{self.family or self.template_hash[:8]}"

    @property
    def markers(self) -> tuple[str, ...]:
        """Literal text that betrays a call attempt in this shape (for reporting unreadable calls)."""
        pieces = (self.call_open, self.wrap_open, self.name_close if self.style != "named-json" else "")
        found = []
        for raw in pieces:
            piece = raw.strip()
            if len(piece) >= 3 and any(char in piece for char in "<[|｜"):
                found.append(piece)
        return tuple(dict.fromkeys(found))
