"""The user's folders: configuration and cache. `ASI_CONFIG_DIR` moves both (the cache to `cache/` below it).

Standard library and platformdirs only: the command line reads them before anything heavy is imported.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["user_cache_dir", "user_config_dir"]


def user_config_dir(env: Mapping[str, str] | None = None) -> Path:
    """The per-user configuration folder (`config.toml`, `USER_PROMPT.md`, `moss-tools.json`)."""
    env = os.environ if env is None else env
    if env.get("ASI_CONFIG_DIR"):
        return Path(env["ASI_CONFIG_DIR"])
    import platformdirs  # noqa: PLC0415 - only when no folder is given

    return Path(platformdirs.user_config_dir("asi-agent"))


def user_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The per-user cache folder (what asi-agent can always make again, e.g. recorded first requests)."""
    env = os.environ if env is None else env
    if env.get("ASI_CONFIG_DIR"):
        return Path(env["ASI_CONFIG_DIR"]) / "cache"
    import platformdirs  # noqa: PLC0415 - only when no folder is given

    return Path(platformdirs.user_cache_dir("asi-agent"))
