"""`web_search`: the configured search backend's results — titles, URLs, snippets, and the backend's own
answer where it gives one.

Backends (`[web] search = …` in the person's configuration): a SearXNG instance's JSON API (`search_url`,
with `json` among the instance's formats), Tavily and Brave (`search_api_key`, or `TAVILY_API_KEY` /
`BRAVE_API_KEY`; `search_url` overrides their endpoint). With none configured, but one of those keys in
the environment, that backend is used; with nothing at all the model is told the search is not available
and how the person can configure it. The backend's address is the person's own choice, so it is not held
to the SSRF guard (a SearXNG instance often runs on this machine).
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from asi_agent.config_sections import WebSection
from asi_agent.exceptions import ToolError
from asi_agent.tools.args import WebSearchArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.web import USER_AGENT, web_settings

__all__ = ["ENDPOINTS", "KEY_VARIABLES", "MAX_RESULTS", "Hit", "web_search"]

MAX_RESULTS = 8
ENDPOINTS: Mapping[str, str] = {
    "tavily": "https://api.tavily.com/search",
    "brave": "https://api.search.brave.com/res/v1/web/search",
}
"""The public endpoints, used unless `search_url` names another."""
KEY_VARIABLES: Mapping[str, str] = {"tavily": "TAVILY_API_KEY", "brave": "BRAVE_API_KEY"}
_TAGS = re.compile(r"<[^>]+>")
HOW_TO = (
    'the person can configure one in config.toml: `[web]` `search = "searxng"` with `search_url = '
    '"http://HOST:PORT"` (a SearXNG instance with the JSON format on), or `search = "tavily"` / `"brave"` '
    "with `search_api_key` (or the TAVILY_API_KEY / BRAVE_API_KEY environment variable)"
)


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result."""

    title: str
    url: str
    snippet: str


async def web_search(args: WebSearchArgs, ctx: ToolContext) -> str:
    """Search the web with the configured backend."""
    query = args.query.strip()
    if not query:
        raise ToolError("query is empty; give the words to search for")
    settings = web_settings(ctx.state)
    backend: str | None = settings.search
    backend = backend or next((name for name, var in KEY_VARIABLES.items() if os.environ.get(var)), None)
    if backend is None:
        raise ToolError(
            f"web_search is not available: no search backend is configured; {HOW_TO}. Tell the person so, "
            "and meanwhile use what you know or web_fetch on a URL you are sure of"
        )
    data = await _request(backend, query, settings)
    answer, hits = _parse(backend, data)
    return _render(query, backend, answer, hits)


@dataclass(frozen=True, slots=True)
class _Query:
    """One request to a backend."""

    url: str
    params: dict[str, str]
    headers: dict[str, str]
    body: dict[str, Any] | None = None
    """A JSON body (then the request is a POST)."""


def _query(backend: str, query: str, settings: WebSection) -> _Query:
    """The request that asks `backend` for `query`."""
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    if backend == "searxng":
        if not settings.search_url:
            raise ToolError(f"web_search: the searxng backend has no search_url; {HOW_TO}")
        return _Query(settings.search_url.rstrip("/") + "/search", {"q": query, "format": "json"}, headers)
    key = settings.search_api_key or os.environ.get(KEY_VARIABLES[backend], "")
    if not key:
        raise ToolError(f"web_search: the {backend} backend has no API key; {HOW_TO}")
    url = settings.search_url or ENDPOINTS[backend]
    if backend == "tavily":
        body = {"query": query, "max_results": MAX_RESULTS, "include_answer": True}
        return _Query(url, {}, headers | {"Authorization": f"Bearer {key}"}, body)
    return _Query(url, {"q": query, "count": str(MAX_RESULTS)}, headers | {"X-Subscription-Token": key})


async def _request(backend: str, query: str, settings: WebSection) -> Any:
    """The backend's JSON answer to `query`."""
    asked = _query(backend, query, settings)
    try:
        async with httpx.AsyncClient(timeout=httpx.Timeout(settings.timeout)) as client:
            if asked.body is None:
                response = await client.get(asked.url, params=asked.params, headers=asked.headers)
            else:
                response = await client.post(asked.url, json=asked.body, headers=asked.headers)
    except httpx.TimeoutException as exc:
        raise ToolError(f"web_search: {backend} did not answer within {settings.timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise ToolError(f"web_search: cannot reach {backend} ({exc}); tell the person") from exc
    if response.status_code in (401, 403):
        raise ToolError(f"web_search: {backend} refused the API key (HTTP {response.status_code}); {HOW_TO}")
    if response.status_code >= 400:
        raise ToolError(f"web_search: {backend} answered HTTP {response.status_code}; try again later")
    try:
        return response.json()
    except ValueError as exc:
        raise ToolError(f"web_search: {backend} did not answer JSON (is its JSON format enabled?)") from exc


def _text(value: object) -> str:
    """A field as plain one-line text (Brave marks matches with <strong>)."""
    return " ".join(html.unescape(_TAGS.sub("", str(value or ""))).split())


def _parse(backend: str, data: Any) -> tuple[str, list[Hit]]:
    """The backend's answer (or "") and its results."""
    if not isinstance(data, dict):
        return "", []
    if backend == "brave":
        web = data.get("web")
        items = web.get("results", []) if isinstance(web, dict) else []
        snippet_key, answer = "description", ""
    else:
        items = data.get("results", [])
        snippet_key = "content"
        answers = data.get("answers") if backend == "searxng" else [data.get("answer")]
        answer = " ".join(_text(item) for item in (answers or []) if item)
    hits = [
        Hit(_text(item.get("title")), str(item.get("url", "")), _text(item.get(snippet_key)))
        for item in items
        if isinstance(item, dict) and item.get("url")
    ]
    return answer, hits[:MAX_RESULTS]


def _render(query: str, backend: str, answer: str, hits: list[Hit]) -> str:
    """The results as the model reads them: numbered, each with its source URL."""
    if not hits and not answer:
        return f'No results for "{query}" ({backend}); try other words.'
    lines = [f'Search results for "{query}" ({backend}):']
    if answer:
        lines.append(f"Answer: {answer}")
    for number, hit in enumerate(hits, 1):
        lines += [f"{number}. {hit.title or hit.url}", f"   {hit.url}"]
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
    lines.append("Read a result with web_fetch; cite the URLs you use.")
    return "\n".join(lines)
