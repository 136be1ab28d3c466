"""`web_fetch`: a page fetched over HTTP(S) and read as Markdown, or processed with the model's prompt.

The request goes through the SSRF guard (`guard`) before it leaves and again at every redirect (followed
here, at most `MAX_REDIRECTS`, never by the client), with the configuration's timeout and a cap on the
bytes read. A PDF is read as its text; GitHub (and GitLab-style) file pages are fetched raw. A page longer
than `web.max_chars` is handed to the model with the request's prompt, as the qwen-code analysis describes,
and the tool returns the model's answer with the source URL; without a model, or when that request fails,
the start of the page.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from asi_agent.config_sections import WebSection
from asi_agent.exceptions import BackendError, ToolError
from asi_agent.tools.args import WebFetchArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.media import pdf_text
from asi_agent.tools.web import USER_AGENT, web_settings
from asi_agent.tools.web.guard import check_target
from asi_agent.tools.web.page import page_text, raw_url

__all__ = ["MAX_REDIRECTS", "Fetched", "fetch_text", "web_fetch"]

MAX_REDIRECTS = 5
_BINARY = ("image/", "audio/", "video/", "application/zip", "application/octet-stream")
_ACCEPT = "text/html, text/markdown, text/*;q=0.9, */*;q=0.5"
_PROCESS = (
    "You read a web page for a coding agent. Answer the request from the page's content only; quote code, "
    "commands, names and numbers exactly, and say so when the page does not answer the request. Be concise."
)


@dataclass(frozen=True, slots=True)
class Fetched:
    """A response read within the limits."""

    url: str
    """Where the content finally came from (after redirects)."""
    text: str
    content_type: str
    cut: bool
    """Whether the body was longer than `web.max_bytes` and cut there."""


async def web_fetch(args: WebFetchArgs, ctx: ToolContext) -> str:
    """Fetch `args.url` and return its text (or, when long, the model's answer to `args.prompt`)."""
    settings = web_settings(ctx.state)
    url = args.url.strip()
    if "://" not in url:
        raise ToolError(f"{url!r} is not a full URL; give it with http:// or https://")
    wanted = raw_url(url)
    fetched = await fetch_text(wanted, settings)
    title, text = page_text(fetched.text, fetched.content_type, fetched.url)
    source = f"Source: {fetched.url}" + (f" (the raw file of {url})" if wanted != url else "")
    source += f"\nTitle: {title}" if title else ""
    cut = f"\n(The response was cut at {settings.max_bytes} bytes.)" if fetched.cut else ""
    if len(text) <= settings.max_chars:
        return f"{source}{cut}\n\n{text}"
    answer = await _processed(ctx, args.prompt, fetched.url, text, settings)
    if answer:
        return (
            f"{source}{cut}\n(The page has {len(text)} characters, more than the {settings.max_chars} "
            f"given at once: it was read with your prompt, and this is the answer.)\n\n{answer}"
        )
    return (
        f"{source}{cut}\n(The page has {len(text)} characters; these are the first {settings.max_chars}.)\n\n"
        f"{text[: settings.max_chars]}"
    )


async def fetch_text(url: str, settings: WebSection) -> Fetched:
    """GET `url` through the guard, following redirects (each one checked), within the limits."""
    timeout = httpx.Timeout(settings.timeout)
    # trust_env=False: a proxy from the environment would reach addresses the guard never saw.
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        current = httpx.URL(url)
        for _ in range(MAX_REDIRECTS + 1):
            target = await check_target(
                current, allow_private=settings.allow_private_hosts, allowed=settings.allowed_hosts
            )
            request = client.build_request(
                "GET",
                target.url,
                headers={"Host": target.host, "User-Agent": USER_AGENT, "Accept": _ACCEPT},
                extensions={"sni_hostname": target.server_name},
            )
            try:
                response = await client.send(request, stream=True)
            except httpx.TimeoutException as exc:
                raise ToolError(f"{current} did not answer within {settings.timeout:g} s") from exc
            except httpx.HTTPError as exc:
                raise ToolError(f"cannot fetch {current}: {exc}") from exc
            try:
                if response.is_redirect and "location" in response.headers:
                    current = current.join(response.headers["location"])
                    continue
                return await _read(response, current, settings)
            finally:
                await response.aclose()
    raise ToolError(f"{url} redirected more than {MAX_REDIRECTS} times; give the final URL")


async def _read(response: httpx.Response, url: httpx.URL, settings: WebSection) -> Fetched:
    """The body of a final response, as text, at most `settings.max_bytes` of it."""
    if response.status_code >= 400:
        raise ToolError(f"{url} answered HTTP {response.status_code} {response.reason_phrase}")
    content_type = response.headers.get("content-type", "")
    if content_type.lower().startswith(_BINARY):
        raise ToolError(f"{url} is not a text page ({content_type}); web_fetch reads HTML and text")
    body, cut = bytearray(), False
    try:
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > settings.max_bytes:
                del body[settings.max_bytes :]
                cut = True
                break
    except httpx.TimeoutException as exc:
        raise ToolError(f"{url} stopped sending within {settings.timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise ToolError(f"cannot read {url}: {exc}") from exc
    if content_type.lower().startswith("application/pdf"):  # a PDF's text, page by page
        return Fetched(str(url), pdf_text(bytes(body)), "text/plain", cut)
    text = bytes(body).decode(response.charset_encoding or "utf-8", "replace")
    return Fetched(str(url), text, content_type, cut)


async def _processed(ctx: ToolContext, prompt: str, url: str, text: str, settings: WebSection) -> str:
    """The model's answer to `prompt` from the page, or "" when there is no model or it failed."""
    if ctx.model is None:
        return ""
    page = text[: settings.max_chars * 4]
    request = f"Request: {prompt}\n\nThe page {url}:\n\n{page}"
    try:
        return (await ctx.model.ask(request, system=_PROCESS)).strip()
    except BackendError:
        return ""
