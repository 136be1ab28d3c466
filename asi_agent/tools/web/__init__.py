"""The web tools (extensions, not in the spec): `web_fetch` and `web_search`, over `httpx` with the
SSRF guard of `guard`. Their settings are the configuration's `[web]` section, which the assembly puts
in the session's tool state under `WEB_KEY`."""

from __future__ import annotations

from typing import Any

from asi_agent.config_sections import WebSection

__all__ = ["USER_AGENT", "WEB_KEY", "web_settings"]

WEB_KEY = "asi_agent.tools.web"
"""The `ctx.state` key of the run's `WebSection`."""
USER_AGENT = "asi-agent (+https://github.com/asi-agent; web tools)"


def web_settings(state: dict[str, Any]) -> WebSection:
    """The run's `[web]` settings, or the defaults when the session was built without them."""
    found = state.get(WEB_KEY)
    return found if isinstance(found, WebSection) else WebSection()
