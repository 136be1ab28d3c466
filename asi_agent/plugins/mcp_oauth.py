"""OAuth 2.1 sign-in to remote MCP servers, through the `mcp` package's client support.

`asi-agent mcp login NAME` runs the authorization-code flow (with PKCE and, where the server offers it,
dynamic client registration): it prints the sign-in address (and opens a browser when one is at hand),
then waits on a loopback address for the redirect. The tokens and the registered client are kept in the
user's configuration folder (`mcp-tokens/`, readable by the user only) — never in the project — and the
SDK refreshes them. A session only uses stored tokens: a server that needs a sign-in it does not have
fails to start with a message naming `asi-agent mcp login`, instead of waiting for a browser.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from asi_agent.exceptions import ToolError

__all__ = ["FileTokenStorage", "login_provider", "session_provider", "token_path", "wants_oauth"]

CALLBACK_PATH = "/callback"


def token_path(user_dir: Path, server: str) -> Path:
    """Where a server's tokens live: the user's configuration folder, never the project."""
    return user_dir / "mcp-tokens" / (re.sub(r"[^A-Za-z0-9_.-]", "_", server) + ".json")


class FileTokenStorage:
    """The SDK's `TokenStorage` as one private JSON file per server, bound to the server's URL."""

    def __init__(self, path: Path, url: str, *, signing_in: bool = False) -> None:
        self.path, self.url = path, url
        self.signing_in = signing_in
        """A sign-in registers its client afresh (its redirect address is new each time); a session keeps
        the client a sign-in registered and never stores another."""
        self._registered = False

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) and data.get("url") == self.url else {}

    def _write(self, key: str, value: dict[str, Any]) -> None:
        data = self._read() or {"url": self.url}
        data[key] = value
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        temporary = self.path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        temporary.replace(self.path)

    def has_tokens(self) -> bool:
        """Whether a sign-in was stored for this server."""
        return "tokens" in self._read()

    async def get_tokens(self) -> Any:
        """The stored tokens, or None."""
        from mcp.shared.auth import OAuthToken  # noqa: PLC0415

        raw = dict(self._read().get("tokens") or {})
        raw.pop("expires_at", None)
        return OAuthToken.model_validate(raw) if raw else None

    async def set_tokens(self, tokens: Any) -> None:
        """Keep new (or refreshed) tokens, with the time their access token expires."""
        kept = tokens.model_dump(mode="json", exclude_none=True)
        if tokens.expires_in is not None:
            kept["expires_at"] = time.time() + tokens.expires_in
        self._write("tokens", kept)

    def expires_at(self) -> float | None:
        """When the stored access token expires (seconds since the epoch), if the server said."""
        value = self._read().get("tokens", {}).get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    async def get_client_info(self) -> Any:
        """The registered client, or None."""
        from mcp.shared.auth import OAuthClientInformationFull  # noqa: PLC0415

        if self.signing_in and not self._registered:
            return None
        raw = self._read().get("client")
        return OAuthClientInformationFull.model_validate(raw) if raw else None

    async def set_client_info(self, client_info: Any) -> None:
        """Keep the client a sign-in registered."""
        if self.signing_in:
            self._registered = True
            self._write("client", client_info.model_dump(mode="json", exclude_none=True))


def _metadata(redirect: str) -> Any:
    from mcp.shared.auth import OAuthClientMetadata  # noqa: PLC0415

    return OAuthClientMetadata.model_validate(
        {
            "client_name": "asi-agent",
            "redirect_uris": [redirect],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        }
    )


def session_provider(url: str, storage: FileTokenStorage, server: str) -> Any:
    """The OAuth provider of a session: stored tokens (refreshed by the SDK), never an interactive flow."""
    from mcp.client.auth import OAuthClientProvider  # noqa: PLC0415

    async def no_browser(_: str) -> None:
        raise ToolError(f"{server} needs a sign-in: run `asi-agent mcp login {server}`")

    async def no_callback() -> Any:
        raise ToolError(f"{server} needs a sign-in: run `asi-agent mcp login {server}`")

    class StoredSignIn(OAuthClientProvider):
        """The SDK's provider, told when the stored access token expires: it refreshes an expired one
        before the request instead of taking the server's 401 for a new sign-in."""

        async def _initialize(self) -> None:
            await super()._initialize()
            self.context.token_expiry_time = storage.expires_at()

    return StoredSignIn(url, _metadata("http://127.0.0.1/callback"), storage, no_browser, no_callback)


class _Callback:
    """A one-shot loopback HTTP listener that takes the authorization redirect."""

    def __init__(self) -> None:
        self.result: asyncio.Future[tuple[str, str | None, str | None]] | None = None
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> str:
        self.result = asyncio.get_running_loop().create_future()
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = (await reader.readline()).decode("latin-1")
        target = line.split(" ")[1] if line.count(" ") >= 2 else "/"
        query = parse_qs(urlparse(target).query)
        code = (query.get("code") or [""])[0]
        body = b"Signed in: you can close this page.\n" if code else b"No authorization code.\n"
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" + body)
        await writer.drain()
        writer.close()
        if code and self.result is not None and not self.result.done():
            self.result.set_result((code, _first(query, "state"), _first(query, "iss")))

    async def wait(self) -> Any:
        from mcp.shared.auth import AuthorizationCodeResult  # noqa: PLC0415

        assert self.result is not None
        code, state, issuer = await self.result
        return AuthorizationCodeResult(code=code, state=state, iss=issuer)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


def _first(query: dict[str, list[str]], key: str) -> str | None:
    values = query.get(key)
    return values[0] if values else None


def wants_oauth(definition: Any) -> bool:
    """A remote server without its own `Authorization` header signs in with OAuth (when it asks to)."""
    return definition.transport != "stdio" and not any(
        k.lower() == "authorization" for k in definition.headers
    )


async def login_provider(url: str, storage: FileTokenStorage) -> tuple[Any, _Callback]:
    """The OAuth provider of `asi-agent mcp login`: prints (and tries to open) the sign-in address and
    takes the redirect on loopback; close the returned listener afterwards."""
    from mcp.client.auth import OAuthClientProvider  # noqa: PLC0415

    callback = _Callback()
    redirect = await callback.start()

    async def show(address: str) -> None:
        print(f"Sign in at: {address}", file=sys.stderr, flush=True)
        if os.environ.get("DISPLAY") or sys.platform == "darwin":
            import webbrowser  # noqa: PLC0415

            webbrowser.open(address)

    provider = OAuthClientProvider(url, _metadata(redirect), storage, show, callback.wait)
    return provider, callback
