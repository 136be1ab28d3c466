"""OAuth 2.1 sign-in to a remote MCP server (the SDK's own server and authorization routes, approving at
once): before sign-in `asi-agent mcp list` says it needs one and a run cannot use it; `asi-agent mcp login`
prints the address, takes the redirect on loopback and keeps the tokens privately in the user's
configuration folder (not the project); then a run calls the server's tool with them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from tests.asi_cli import model_free_env
from tests.mcp_helpers import serving, write_mcp_json

pytest.importorskip("mcp")


@pytest.fixture
def url() -> Iterator[str]:
    with serving("mcp_oauth_server.py") as port:
        yield f"http://127.0.0.1:{port}/mcp"


def _env(config: Path) -> dict[str, str]:
    return {**model_free_env(), "ASI_CONFIG_DIR": str(config), "DISPLAY": ""}


def _asi(root: Path, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=root,
        env=_env(config),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _run_whisper(root: Path, config: Path) -> dict:
    replies = [{"text": "", "tool_calls": [{"name": "demo__whisper", "arguments": {"text": "HUSH"}}]}]
    model = root.parent / "script.json"
    model.write_text(json.dumps({"native": True, "replies": [*replies, "Done.\nAGENT_STATUS: DONE"]}))
    done = _asi(
        root, config, "run", "--provider", "scripted", "--model", str(model), "--output-format", "json", "go"
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _start_login(root: Path, config: Path) -> tuple[subprocess.Popen[str], str]:
    """`asi-agent mcp login demo` running, and the sign-in address it printed."""
    login = subprocess.Popen(
        [sys.executable, "-m", "asi_agent", "mcp", "login", "demo"],
        cwd=root,
        env=_env(config),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert login.stderr is not None
    line = ""
    while "Sign in at:" not in line:
        line = login.stderr.readline()
        assert line, "login ended without printing the sign-in address"
    found = re.search(r"Sign in at: (\S+)", line)
    assert found, line
    return login, found.group(1)


def test_login_then_use(tmp_path: Path, url: str) -> None:
    root, config = tmp_path / "proj", tmp_path / "config"
    root.mkdir()
    config.mkdir()
    write_mcp_json(config, "demo", {"type": "http", "url": url})

    (row,) = json.loads(_asi(root, config, "mcp", "list", "--json").stdout)
    assert row["state"] == "needs sign-in" and "asi-agent mcp login demo" in row["detail"]
    assert _run_whisper(root, config)["tool_calls"][0]["ok"] is False

    login, address = _start_login(root, config)
    # The person's browser: the authorization server approves and redirects to asi-agent's loopback.
    redirect = httpx2.get(address, follow_redirects=False)
    assert redirect.status_code in (302, 303, 307), redirect.text
    httpx2.get(redirect.headers["location"])
    out, err = login.communicate(timeout=60)
    assert login.returncode == 0, err
    assert "signed in to demo" in out

    tokens = config / "mcp-tokens" / "demo.json"
    assert tokens.stat().st_mode & 0o077 == 0
    assert "access_token" in tokens.read_text(encoding="utf-8")
    assert not list(root.rglob("*token*"))
    result = _run_whisper(root, config)
    assert result["tool_calls"] == [{"name": "demo__whisper", "ok": True, "error": None}]


def test_an_expired_access_token_is_refreshed(tmp_path: Path, url: str) -> None:
    """A later session whose stored access token has expired refreshes it (the refresh token) instead of
    asking for a new sign-in; the new tokens are kept."""
    root, config = tmp_path / "proj", tmp_path / "config"
    root.mkdir()
    config.mkdir()
    write_mcp_json(config, "demo", {"type": "http", "url": url})
    login, address = _start_login(root, config)
    redirect = httpx2.get(address, follow_redirects=False)
    httpx2.get(redirect.headers["location"])
    assert login.wait(60) == 0

    path = config / "mcp-tokens" / "demo.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["tokens"]["expires_at"] > time.time()
    stored["tokens"].update(access_token="expired-not-a-token", expires_at=time.time() - 60)
    path.write_text(json.dumps(stored), encoding="utf-8")

    result = _run_whisper(root, config)
    assert result["tool_calls"] == [{"name": "demo__whisper", "ok": True, "error": None}]
    refreshed = json.loads(path.read_text(encoding="utf-8"))["tokens"]
    assert refreshed["access_token"] != "expired-not-a-token" and refreshed["expires_at"] > time.time()


def test_a_projects_server_of_the_same_name_never_gets_the_users_tokens(tmp_path: Path, url: str) -> None:
    """The person signed in to their `demo` server; a repository they trusted (and whose server they
    approved) names its own `demo` at another address: that address gets the requests, never the tokens
    (they are bound to the address they were issued for)."""
    from tests.servers.web_site import Page, WebSite  # noqa: PLC0415

    root, config = tmp_path / "proj", tmp_path / "config"
    root.mkdir()
    config.mkdir()
    write_mcp_json(config, "demo", {"type": "http", "url": url})
    login, address = _start_login(root, config)
    httpx2.get(httpx2.get(address, follow_redirects=False).headers["location"])
    assert login.wait(60) == 0
    access = json.loads((config / "mcp-tokens" / "demo.json").read_text())["tokens"]["access_token"]
    with WebSite({"/mcp": Page("{}", status=401, headers={"Content-Type": "application/json"})}) as other:
        write_mcp_json(root, "demo", {"type": "http", "url": f"{other.url}/mcp"}, file=".mcp.json")
        assert _asi(root, config, "trust", str(root)).returncode == 0
        approved = _asi(root, config, "mcp", "approve", "demo")
        assert approved.returncode == 0, approved.stderr
        _run_whisper(root, config)
        assert other.requests, "the project's server was never tried"
        assert all(access not in json.dumps(r.headers) for r in other.requests)
