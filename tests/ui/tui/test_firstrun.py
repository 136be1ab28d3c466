"""The first-run screen: no model configured → Ollama, an OpenAI-compatible server, or the embedded model.
The choice is written to the user config folder (`ASI_CONFIG_DIR`, a temporary folder in every test)."""

from __future__ import annotations

import tomllib

from chat_helpers import chat_args, send, until
from textual.widgets import Input, OptionList, Static

from asi_agent.ui.tui.app import ChatApp
from asi_agent.ui.tui.screens import FirstRunScreen
from asi_agent.ui.tui.widgets import ReplyView


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_ollama_is_detected_and_its_model_chosen(project, ollama_server, monkeypatch, user_config):
    monkeypatch.setenv("OLLAMA_HOST", ollama_server.host)
    ollama_server.reply("Hello from Ollama.\nAGENT_STATUS: DONE")
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        screen = app.screen
        await until(pilot, lambda: screen.query_one("#ollama-models", OptionList).option_count == 1)
        assert "has 1 model" in text_of(screen, "#ollama-status")
        await pilot.press("enter")
        await until(pilot, lambda: app.chat is not None)
        saved = tomllib.loads((user_config / "config.toml").read_text())
        assert saved == {"provider": "ollama", "model": "test-model", "base_url": ollama_server.host}
        assert app.status.fields["model"] == "ollama/test-model"
        await send(pilot, "hello")
        await until(pilot, lambda: app.status.fields.get("agent_status") == "DONE")
        assert app.query_one(ReplyView).text == "Hello from Ollama."


def models_requests(server) -> list[str]:
    """The `Authorization` header of every `GET /v1/models` the server received, in order."""
    return [r.headers.get("Authorization", "") for r in server.requests if r.path == "/v1/models"]


async def test_openai_url_and_key_are_checked_with_one_request(project, openai_server, user_config):
    """No URL, a refused key, then the right one: each press of Check with a URL is one request that
    reaches the server. The presses follow each other faster than Textual's 0.2 s button effect, which
    used to swallow a press right after a quick answer (a local server refuses a key that fast)."""
    openai_server.api_key = "sk-right"
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        screen = app.screen
        await until(pilot, lambda: "no Ollama answered" in text_of(screen, "#ollama-status"))
        await pilot.click("#check")
        await until(pilot, lambda: "base URL first" in text_of(screen, "#check-status"))
        screen.query_one("#url", Input).value = openai_server.base_url
        screen.query_one("#key", Input).value = "sk-wrong"
        await pilot.click("#check")  # at once: well within the button's 0.2 s effect
        await until(pilot, lambda: "refused the key" in text_of(screen, "#check-status"))
        assert models_requests(openai_server) == ["Bearer sk-wrong"]
        assert not (user_config / "config.toml").exists()
        screen.query_one("#key", Input).value = "sk-right"
        await pilot.click("#check")
        await until(pilot, lambda: app.chat is not None)
        assert models_requests(openai_server) == ["Bearer sk-wrong", "Bearer sk-right"]
        saved = tomllib.loads((user_config / "config.toml").read_text())
        assert saved == {
            "provider": "openai",
            "base_url": openai_server.base_url,
            "api_key": "sk-right",
            "model": "test-model",
        }
        assert (user_config / "config.toml").stat().st_mode & 0o077 == 0, "the key is private"


async def test_enter_in_the_key_box_checks(project, openai_server, user_config):
    """Enter in the key box runs the same check as the button: one request, then the config is written."""
    openai_server.api_key = "sk-right"
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        screen = app.screen
        screen.query_one("#url", Input).value = openai_server.base_url
        key = screen.query_one("#key", Input)
        key.value = "sk-right"
        key.focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.chat is not None)
        assert models_requests(openai_server) == ["Bearer sk-right"]
        assert tomllib.loads((user_config / "config.toml").read_text())["api_key"] == "sk-right"


async def test_unreachable_server_is_reported(project, user_config):
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        screen = app.screen
        screen.query_one("#url", Input).value = "http://127.0.0.1:9/v1"
        await pilot.click("#check")
        await until(pilot, lambda: "cannot reach" in text_of(screen, "#check-status"))
        assert isinstance(app.screen, FirstRunScreen)


async def test_embedded_model_is_written_to_the_user_config(project, user_config):
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        await pilot.click("#embedded")
        await until(pilot, lambda: app.chat is not None)
        assert tomllib.loads((user_config / "config.toml").read_text()) == {"provider": "local"}
        assert app.status.fields["model"].startswith("local/")


async def test_no_first_run_when_a_model_is_configured(project, user_config):
    (user_config / "config.toml").write_text('provider = "local"\n')
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.chat is not None)
        assert not isinstance(app.screen, FirstRunScreen)


async def test_the_screen_says_its_keys_and_enter_picks_the_focused_choice(project, user_config):
    """Without Ollama the focus is on the choice that always works: Enter alone picks the embedded model."""
    app = ChatApp(chat_args(project))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FirstRunScreen))
        screen = app.screen
        await until(pilot, lambda: "no Ollama answered" in text_of(screen, "#ollama-status"))
        keys = text_of(screen, "#firstrun-keys")
        assert "Tab / Shift+Tab" in keys and "Enter picks" in keys and "Ctrl+Q quits" in keys
        assert app.focused is not None and app.focused.id == "embedded"
        await pilot.press("tab")
        assert app.focused.id == "url"  # Tab leads on to the server form
        await pilot.press("shift+tab", "enter")
        await until(pilot, lambda: app.chat is not None)
        assert tomllib.loads((user_config / "config.toml").read_text()) == {"provider": "local"}
