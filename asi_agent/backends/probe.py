"""What a model server can tell about its model: the context window and the tokenizer.

llama.cpp's server (and the in-process xllamacpp one) answer `GET /props` with the slot's `n_ctx` and
count tokens with `POST /tokenize`; vLLM reports `max_model_len` in `GET /v1/models`. Anything else
answers neither, and the caller falls back to the configured window and an estimate.
"""

from __future__ import annotations

import logging
import re
from typing import Any

# httpx2, the openai SDK's fork of httpx: `import httpx` also loads its command line (click, rich, pygments).
import httpx2

from asi_agent.backends.tls import verify_for

__all__ = ["ServerProbe", "looks_like_context_overflow"]

from asi_agent.backends.overflow import looks_like_context_overflow

log = logging.getLogger("asi_agent.backends.probe")


class ServerProbe:
    """Asks an OpenAI-compatible server (llama.cpp, vLLM) about the model; every failure means "unknown"."""

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 5.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.root = re.sub(r"/v1$", "", self.base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx2.AsyncClient(headers=headers, timeout=timeout, verify=verify_for(self.base_url))
        self._tokenize: bool | None = None
        """Whether `/tokenize` answers; None until tried."""

    async def context_window(self, model: str) -> int | None:
        """llama.cpp's `n_ctx` from `/props`, else vLLM's `max_model_len` of `model`, else None."""
        props = await self._get(f"{self.root}/props")
        if isinstance(props, dict):
            settings = props.get("default_generation_settings") or {}
            n_ctx = settings.get("n_ctx") or props.get("n_ctx")
            if isinstance(n_ctx, int) and n_ctx > 0:
                return n_ctx
        return await self.listed_window(model)

    async def listed_window(self, model: str) -> int | None:
        """vLLM's `max_model_len` of `model` in `/v1/models`, else None."""
        listing = await self._get(f"{self.base_url}/models")
        for entry in (listing or {}).get("data") or () if isinstance(listing, dict) else ():
            if isinstance(entry, dict) and entry.get("id") == model and entry.get("max_model_len"):
                return int(entry["max_model_len"])
        return None

    async def count_tokens(self, text: str) -> int | None:
        """Tokens of `text` by the server's own tokenizer (`/tokenize`), or None when it has none."""
        if self._tokenize is False:
            return None
        try:
            response = await self._http.post(f"{self.root}/tokenize", json={"content": text})
            tokens = response.json().get("tokens") if response.status_code == 200 else None
        except (httpx2.HTTPError, ValueError, AttributeError):
            tokens = None
        self._tokenize = isinstance(tokens, list)
        return len(tokens) if isinstance(tokens, list) else None

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def _get(self, url: str) -> Any:
        try:
            response = await self._http.get(url)
            return response.json() if response.status_code == 200 else None
        except (httpx2.HTTPError, ValueError) as exc:
            log.debug("no answer from %s: %s", url, exc)
            return None
