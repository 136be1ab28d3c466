"""One string from a GGUF file's metadata (the model's `tokenizer.chat_template`), read from its header.

GGUF (llama.cpp's model format): magic `GGUF`, a version, the tensor and key/value counts, then the
key/value pairs, each a length-prefixed key, a type and a value; arrays (the vocabulary) are skipped
without being read into memory.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

__all__ = ["gguf_string"]

# Sizes of GGUF's fixed-width value types, by type id (8 = string and 9 = array are read apart).
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
_MAX_STRING = 1 << 24


def _u32(file: BinaryIO) -> int:
    return int(struct.unpack("<I", _exact(file, 4))[0])


def _u64(file: BinaryIO) -> int:
    return int(struct.unpack("<Q", _exact(file, 8))[0])


def _exact(file: BinaryIO, size: int) -> bytes:
    data = file.read(size)
    if len(data) != size:
        raise ValueError("the GGUF header ends early")
    return data


def _string(file: BinaryIO) -> bytes:
    size = _u64(file)
    if size > _MAX_STRING:
        raise ValueError(f"a GGUF string of {size} bytes")
    return _exact(file, size)


def _skip(file: BinaryIO, kind: int) -> None:
    if kind in _FIXED:
        file.seek(_FIXED[kind], 1)
    elif kind == _STRING:
        file.seek(_u64(file), 1)
    elif kind == _ARRAY:
        item, count = _u32(file), _u64(file)
        if item in _FIXED:
            file.seek(_FIXED[item] * count, 1)
        else:
            for _ in range(count):
                _skip(file, item)
    else:
        raise ValueError(f"unknown GGUF value type {kind}")


def gguf_string(path: Path, key: str) -> str | None:
    """The string value of `key` in the GGUF file's metadata; None when the key is absent or not a
    string. ValueError when the file is not a GGUF file; OSError when it cannot be read."""
    wanted = key.encode()
    with path.open("rb") as file:
        if file.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        version = _u32(file)
        if version < 2:
            raise ValueError(f"{path}: GGUF version {version} is not supported")
        _u64(file)  # tensor count
        for _ in range(_u64(file)):
            name, kind = _string(file), _u32(file)
            if name == wanted and kind == _STRING:
                return _string(file).decode("utf-8", "replace")
            _skip(file, kind)
    return None
