"""`web_fetch` through the real `asi-agent run` against a local site: HTML as Markdown, the SSRF guard (on
the first request, after DNS, after every redirect), raw file links, limits, the model reading long
pages, and the policy's network question."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asi_cli import tool_results
from ext_run import DONE, json_run, write_user_config
from pdf_fixture import make_pdf
from servers.web_site import Page, WebSite

ARTICLE = """<!doctype html><html><head><title>Release notes</title><style>body{color:red}</style>
<script>alert("SCRIPT-MARKER")</script></head><body><nav>NAV-MARKER home</nav>
<main><h1>Version 2</h1><p>The <code>run</code> command gained <b>--json</b>.</p>
<ul><li>first change</li><li>second change</li></ul><pre><code>asi-agent run --json</code></pre>
<a href="/docs">docs</a></main><footer>FOOTER-MARKER</footer></body></html>"""
LINKS = """<html><body><main><p><a href="next.html">next</a> <a href="../up/">up</a>
<a href="/top?q=1">top</a> <a href="#usage">usage</a> <a href="https://example.org/x">elsewhere</a>
<a href="mailto:team@example.org">mail</a> <img src="img/logo.png" alt="logo"></p></main></body></html>"""
BASED = """<html><head><base href="/assets/v2/"></head><body><p><a href="guide.html">guide</a>
<img src="shot.png" alt="shot"></p></body></html>"""
LONG = (
    "<html><body><main>" + "<p>filler words here</p>" * 400 + "<p>The answer is 42.</p></main></body></html>"
)


@pytest.fixture
def site() -> Iterator[WebSite]:
    routes = {
        "/article": Page(ARTICLE),
        "/long": Page(LONG),
        "/docs/v1/intro": Page(LINKS),
        "/moved": Page(status=301, headers={"Location": "/docs/v1/intro"}),
        "/based": Page(BASED),
        "/big": Page("x" * 10_000, headers={"Content-Type": "text/plain"}),
        "/slow": Page("late", delay=3),
        "/image": Page(b"\x89PNG", headers={"Content-Type": "image/png"}),
        "/paper.pdf": Page(
            make_pdf(["Abstract PDF-MARKER", "Results"]), headers={"Content-Type": "application/pdf"}
        ),
        "/group/proj/-/raw/main/README.md": Page(
            "# Proj\nRAW-MARKER\n", headers={"Content-Type": "text/plain"}
        ),
    }
    with WebSite(routes) as served:
        yield served


def _configure(project: Path, web: str) -> None:
    write_user_config(project, f"[web]\n{web}\n")


def _fetch(url: str, prompt: str = "What changed?") -> dict[str, Any]:
    return {"name": "web_fetch", "arguments": {"url": url, "prompt": prompt}}


def _one(project: Path, url: str, *flags: str, **kwargs: Any) -> tuple[dict[str, Any], str]:
    result = json_run(project, [_fetch(url)], *flags, **kwargs)
    return result, tool_results(project, result["session_id"])[0]


def test_an_html_page_is_read_as_markdown_with_its_source(project: Path, site: WebSite) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]')

    result, seen = _one(project, f"{site.url}/article", "--allow-network")

    assert result["tool_calls"][0]["ok"] is True, seen
    assert seen.startswith(f"Source: {site.url}/article\nTitle: Release notes\n")
    assert "# Version 2" in seen and "`run` command gained **--json**" in seen
    assert "- first change\n- second change" in seen and "asi-agent run --json" in seen
    assert f"[docs]({site.url}/docs)" in seen
    assert not any(marker in seen for marker in ("SCRIPT-MARKER", "NAV-MARKER", "FOOTER-MARKER", "color:red"))


def test_links_and_images_are_absolute_against_the_final_url(project: Path, site: WebSite) -> None:
    """Relative links and images resolve against the page the redirect led to, or its `<base href>`;
    absolute ones stay."""
    _configure(project, f'allowed_hosts = ["{site.host}"]')
    result = json_run(project, [_fetch(f"{site.url}/moved"), _fetch(f"{site.url}/based")], "--yes")
    moved, based = tool_results(project, result["session_id"])

    assert [call["ok"] for call in result["tool_calls"]] == [True, True], moved
    assert moved.startswith(f"Source: {site.url}/docs/v1/intro\n")
    here = f"{site.url}/docs/v1"
    for link in (f"[next]({here}/next.html)", f"[up]({site.url}/docs/up/)", f"[top]({site.url}/top?q=1)",
                 f"[usage]({here}/intro#usage)", "[elsewhere](https://example.org/x)",
                 "[mail](mailto:team@example.org)", f"![logo]({here}/img/logo.png)"):  # fmt: skip
        assert link in moved, moved
    assert f"[guide]({site.url}/assets/v2/guide.html)" in based, based
    assert f"![shot]({site.url}/assets/v2/shot.png)" in based


@pytest.mark.parametrize(
    ("flags", "allowed"),
    [(["--approval", "ask"], False), (["--approval", "auto-edit"], False), (["--yes"], True),
     (["--allow-network"], True)],
)  # fmt: skip
def test_it_is_network_access_that_asks_unless_the_network_is_allowed(
    project: Path, site: WebSite, flags: list[str], allowed: bool
) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]')

    result, seen = _one(project, f"{site.url}/article", *flags)

    assert result["tool_calls"][0]["ok"] is allowed, seen
    if not allowed:
        assert "network calls ask first" in result["denied_calls"][0]["reason"]
        assert site.paths() == []


def test_loopback_is_refused_before_any_request_also_by_name(project: Path, site: WebSite) -> None:
    for url, said in ((f"{site.url}/article", f"{site.host} is a loopback address"),
                      (f"http://localhost:{site.port}/article", "resolves to 127.0.0.1, a loopback address"),
                      ("http://169.254.169.254/latest/meta-data/", "is a link-local address"),
                      ("http://[::ffff:10.0.0.1]/", "a private address")):  # fmt: skip
        result, seen = _one(project, url, "--yes")
        assert result["tool_calls"][0]["ok"] is False
        assert "refused: " in seen and said in seen, seen
        assert "web.allow_private_hosts = true" in seen
    assert site.paths() == []


def test_every_redirect_is_checked_again(project: Path, site: WebSite) -> None:
    with WebSite({"/secret": Page("SECRET-MARKER")}) as other:
        site.routes["/to-meta"] = Page(status=302, headers={"Location": "http://169.254.169.254/latest/"})
        site.routes["/to-other"] = Page(status=301, headers={"Location": f"{other.url}/secret"})
        site.routes["/to-article"] = Page(status=307, headers={"Location": "/article"})
        _configure(project, f'allowed_hosts = ["{site.host}"]')
        calls = [_fetch(f"{site.url}{path}") for path in ("/to-meta", "/to-other", "/to-article")]

        result = json_run(project, calls, "--yes")

        seen = tool_results(project, result["session_id"])
        assert [call["ok"] for call in result["tool_calls"]] == [False, False, True], seen
        assert "refused: 169.254.169.254 is a link-local address" in seen[0]
        assert f"refused: {other.host} is a loopback address" in seen[1]
        assert seen[2].startswith(f"Source: {site.url}/article\n")
        assert other.paths() == []
        assert site.paths() == ["/to-meta", "/to-other", "/to-article", "/article"]


def test_allow_private_hosts_lets_every_local_address_through(project: Path, site: WebSite) -> None:
    _configure(project, "allow_private_hosts = true")

    result, seen = _one(project, f"http://localhost:{site.port}/article", "--yes")

    assert result["tool_calls"][0]["ok"] is True and "# Version 2" in seen


def test_a_forge_file_page_is_fetched_raw(project: Path, site: WebSite) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]')

    result, seen = _one(project, f"{site.url}/group/proj/-/blob/main/README.md", "--yes")

    assert result["tool_calls"][0]["ok"] is True
    assert site.paths() == ["/group/proj/-/raw/main/README.md"]
    assert f"(the raw file of {site.url}/group/proj/-/blob/main/README.md)" in seen and "RAW-MARKER" in seen


def test_a_long_page_is_read_by_the_model_with_the_prompt(project: Path, site: WebSite) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]\nmax_chars = 1000')

    result, seen = _one(project, f"{site.url}/long", "--yes", replies_after=["The page says 42.", DONE, DONE])

    assert result["tool_calls"][0]["ok"] is True
    assert seen.startswith(f"Source: {site.url}/long\n")
    assert "it was read with your prompt" in seen and seen.endswith("The page says 42.")


def test_limits_cut_big_bodies_time_out_slow_ones_and_refuse_binaries(project: Path, site: WebSite) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]\nmax_bytes = 2048\ntimeout = 1')
    calls = [_fetch(f"{site.url}{path}") for path in ("/big", "/slow", "/image", "/missing")]

    result = json_run(project, calls, "--yes")

    seen = tool_results(project, result["session_id"])
    assert [call["ok"] for call in result["tool_calls"]] == [True, False, False, False], seen
    assert "(The response was cut at 2048 bytes.)" in seen[0] and seen[0].endswith("x" * 2048)
    assert "did not answer within 1 s" in seen[1] or "stopped sending within 1 s" in seen[1]
    assert "is not a text page (image/png)" in seen[2]
    assert "answered HTTP 404" in seen[3]


def test_a_pdf_is_read_as_its_text(project: Path, site: WebSite) -> None:
    _configure(project, f'allowed_hosts = ["{site.host}"]')

    result, seen = _one(project, f"{site.url}/paper.pdf", "--yes")

    assert result["tool_calls"][0]["ok"] is True, seen
    assert (
        seen
        == f"Source: {site.url}/paper.pdf\n\n--- page 1 ---\nAbstract PDF-MARKER\n--- page 2 ---\nResults"
    )
