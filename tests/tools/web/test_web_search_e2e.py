"""`web_search` through the real `asi-agent run` against local fakes of each backend's API (SearXNG,
Tavily, Brave), and the message when no backend is configured."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from asi_cli import tool_results
from ext_run import json_run, write_user_config
from servers.web_site import Page, Request, WebSite

JSON = {"Content-Type": "application/json"}
RESULTS = [
    {
        "title": "httpx docs",
        "url": "https://www.python-httpx.org/",
        "content": "A next-generation HTTP client.",
    },
    {"title": "httpx on PyPI", "url": "https://pypi.org/project/httpx/", "content": "Install with pip."},
]


def _searxng(request: Request) -> str:
    return json.dumps({"query": "httpx", "results": RESULTS, "answers": ["httpx is an HTTP client."]})


def _tavily(request: Request) -> str:
    return json.dumps({"answer": "httpx is an HTTP client for Python.", "results": RESULTS})


def _brave(request: Request) -> str:
    items = [{"title": "<strong>httpx</strong> docs", "url": "https://www.python-httpx.org/",
              "description": "A <strong>next-generation</strong> HTTP client &amp; more."}]  # fmt: skip
    return json.dumps({"type": "search", "web": {"results": items}})


@pytest.fixture
def site() -> Iterator[WebSite]:
    routes = {
        "/search": Page(_searxng, headers=JSON),
        "/tavily/search": Page(_tavily, headers=JSON),
        "/brave/search": Page(_brave, headers=JSON),
        "/denied": Page('{"detail": "bad key"}', status=401, headers=JSON),
    }
    with WebSite(routes) as served:
        yield served


def _search(project: Path, web: str, query: str = "python httpx") -> tuple[dict[str, Any], str]:
    write_user_config(project, f"[web]\n{web}\n")
    result = json_run(project, [{"name": "web_search", "arguments": {"query": query}}], "--yes")
    return result, tool_results(project, result["session_id"])[0]


def test_searxng_json_api(project: Path, site: WebSite) -> None:
    result, seen = _search(project, f'search = "searxng"\nsearch_url = "{site.url}/"')

    assert result["tool_calls"][0]["ok"] is True, seen
    assert seen.splitlines() == [
        'Search results for "python httpx" (searxng):',
        "Answer: httpx is an HTTP client.",
        "1. httpx docs",
        "   https://www.python-httpx.org/",
        "   A next-generation HTTP client.",
        "2. httpx on PyPI",
        "   https://pypi.org/project/httpx/",
        "   Install with pip.",
        "Read a result with web_fetch; cite the URLs you use.",
    ]
    assert site.paths() == ["/search?q=python+httpx&format=json"]


def test_tavily_gets_the_key_and_gives_its_answer(project: Path, site: WebSite) -> None:
    config = f'search = "tavily"\nsearch_url = "{site.url}/tavily/search"\nsearch_api_key = "tvly-FAKE-KEY"'

    result, seen = _search(project, config)

    assert result["tool_calls"][0]["ok"] is True, seen
    assert "Answer: httpx is an HTTP client for Python." in seen and "2. httpx on PyPI" in seen
    request = site.requests[0]
    assert request.method == "POST" and request.headers["Authorization"] == "Bearer tvly-FAKE-KEY"
    assert json.loads(request.body) == {"query": "python httpx", "max_results": 8, "include_answer": True}


def test_brave_gets_the_key_and_its_markup_is_removed(project: Path, site: WebSite) -> None:
    config = f'search = "brave"\nsearch_url = "{site.url}/brave/search"\nsearch_api_key = "BSA-FAKE"'

    result, seen = _search(project, config)

    assert result["tool_calls"][0]["ok"] is True, seen
    assert seen.splitlines()[1:4] == [
        "1. httpx docs",
        "   https://www.python-httpx.org/",
        "   A next-generation HTTP client & more.",
    ]
    assert site.requests[0].headers["X-Subscription-Token"] == "BSA-FAKE"
    assert site.paths() == ["/brave/search?q=python+httpx&count=8"]


def test_no_backend_is_an_error_the_model_can_relay_with_how_to_configure_one(project: Path) -> None:
    result, seen = _search(project, "")

    assert result["tool_calls"][0]["ok"] is False
    assert "web_search is not available: no search backend is configured" in seen
    assert 'search = "searxng"' in seen and "TAVILY_API_KEY" in seen


def test_a_refused_key_and_a_missing_key_say_what_to_configure(project: Path, site: WebSite) -> None:
    _, seen = _search(project, f'search = "brave"\nsearch_url = "{site.url}/denied"\nsearch_api_key = "x"')
    assert "brave refused the API key (HTTP 401)" in seen

    _, seen = _search(project, 'search = "tavily"')
    assert "the tavily backend has no API key" in seen and "search_api_key" in seen
