"""The router with the model server's embeddings endpoint (OpenAI `/v1/embeddings`, Ollama `/api/embed`),
through `asi-agent skills route --json`, against a real loopback HTTP server."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from asi_cli import model_free_env

DIMENSIONS = 64


def _vector(text: str) -> list[float]:
    """A bag of hashed words: texts sharing words point the same way."""
    vector = [0.0] * DIMENSIONS
    for word in text.lower().replace(".", " ").replace(",", " ").split():
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
    return vector


class _Embeddings(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        vectors = [_vector(text) for text in body["input"]]
        if self.path == "/v1/embeddings":
            reply = {"data": [{"embedding": v, "index": i} for i, v in enumerate(vectors)]}
        elif self.path == "/api/embed":
            reply = {"embeddings": vectors}
        else:
            self.send_error(404)
            return
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_: object) -> None:
        """Quiet."""


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Embeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


@pytest.mark.parametrize("provider", ["openai", "ollama"])
def test_skills_are_routed_with_the_servers_embeddings(tmp_path: Path, server: str, provider: str) -> None:
    project, config = tmp_path / "project", tmp_path / "config"
    for name, description in [("pdf-forms", "Fill in PDF forms and their fields."),
                              ("release-notes", "Write release notes from the git log.")]:  # fmt: skip
        folder = project / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nSteps.\n", "utf-8"
        )
    config.mkdir()
    base = f"{server}/v1" if provider == "openai" else server
    settings = f'provider = "{provider}"\nbase_url = "{base}"\n[skills]\nembedding_model = "test-embed"\n'
    (config / "config.toml").write_text(settings, encoding="utf-8")
    env = model_free_env()
    env.update(HOME=str(tmp_path / "home"), ASI_CONFIG_DIR=str(config))
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "skills", "route", "fill the PDF forms", "--json"],
        cwd=project, capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    route = json.loads(done.stdout)
    assert route["method"] == f"{provider}:test-embed"
    assert route["candidates"][0]["name"] == "pdf-forms"
    assert (config / "cache" / "skill-vectors.sqlite").is_file()  # cached by content hash


def test_a_skill_close_to_every_request_does_not_crowd_out_the_one_meant(tmp_path: Path, server: str) -> None:
    """`lint` and `helper` share the words every skill here is described with ("the code", "files of the
    project"), so by plain similarity they rank above `certs` for any request about the project; with the
    average request (the skills as requests) discounted, the specific skill comes first."""
    project, config = tmp_path / "project", tmp_path / "config"
    for name, description in [("helper", "Helps with the code and the files of the project."),
                              ("certs", "Rotates expired TLS certificates on the load balancer."),
                              ("notes", "Writes release notes for the code of the project."),
                              ("lint", "Lints the code files of the project."),
                              ("docs", "Writes docs for the files of the project.")]:  # fmt: skip
        folder = project / ".asi" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nSteps.\n", "utf-8"
        )
    config.mkdir()
    settings = f'provider = "openai"\nbase_url = "{server}/v1"\n[skills]\nembedding_model = "test-embed"\n'
    (config / "config.toml").write_text(settings, encoding="utf-8")
    env = model_free_env()
    env.update(HOME=str(tmp_path / "home"), ASI_CONFIG_DIR=str(config))
    query = "rotate the TLS certificates of the project"
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "skills", "route", query, "--json", "--top", "3"],
        cwd=project, capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    route = json.loads(done.stdout)
    assert route["candidates"][0]["name"] == "certs"
    plain = {"lint": "Lints the code files of the project.", "certs": "Rotates expired TLS certificates on "
             "the load balancer.", "helper": "Helps with the code and the files of the project."}  # fmt: skip
    similarity = {name: _cosine(_vector(query), _vector(f"{name}\n{text}")) for name, text in plain.items()}
    assert similarity["certs"] < min(similarity["lint"], similarity["helper"])  # what the discount overcomes


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return float(dot / ((sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5))
