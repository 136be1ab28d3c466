"""The modal that asks before a call runs, the one that asks whether to trust a new project folder, and
the first-run screen that picks a model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, OptionList, Static

from asi_agent.events import Answer, ApprovalRequested
from asi_agent.exceptions import BackendError
from asi_agent.ui import firstrun
from asi_agent.ui.tui.widgets import diff_renderable

__all__ = ["ApprovalScreen", "ConfirmScreen", "FirstRunScreen", "TrustScreen", "Verdict"]

Verdict = tuple[Answer, str] | None
"""The answer and, with `e`, the person's reason; None when Esc interrupted the turn."""
ARGUMENT_CHARS = 1500


class ApprovalScreen(ModalScreen[Verdict]):
    """Asks about one call: y / n / a (always, this tool, this session) / e (no, and say why) / Esc."""

    AUTO_FOCUS = "#details"  # keys go to the bindings (arrows scroll the details), not into the reason box

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer('yes')", "yes"),
        Binding("n", "answer('no')", "no"),
        Binding("a", "answer('always')", "always"),
        Binding("e", "explain", "no, and say why"),
        Binding("escape", "interrupt", "interrupt the turn"),
    ]

    def __init__(self, request: ApprovalRequested) -> None:
        super().__init__()
        self.request = request
        self.always_offered = request.rule.startswith("mode ")
        """The gate's "always" answers only the mode's questions: a destructive command, a secret or a
        policy rule asks every time, so `a` is not offered for them."""

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="dialog"):
            yield Label(Text.assemble(("Allow ", ""), (request.call.name, "bold"), f"  ({request.risk})?"))
            yield Static(Text(f"Why it asks: {request.reason}"), id="reason")
            # the details scroll and the keys stay in view: on a short terminal a long diff used to push
            # the keys off the dialog
            with VerticalScroll(id="details"):
                yield Static(Text(_arguments(request.call.arguments)), id="arguments")
                if request.preview:
                    yield Static(diff_renderable(request.preview), id="preview")
            with Vertical(id="answer"):
                yield Static(self._keys(), id="keys")
                yield Input(placeholder="why not? (Enter sends it to the model)", id="why", disabled=True)

    def _keys(self) -> Text:
        always = (
            f"   [a] always for {self.request.call.name} this session"
            if self.always_offered
            else f"  (a: not offered, the {self.request.rule} asks every time)"
        )
        return Text(f"[y] yes   [n] no{always}   [e] no, and tell the model why   [Esc] interrupt")

    def on_mount(self) -> None:
        """The reason box appears only after `e`."""
        self.query_one("#why", Input).display = False

    def action_answer(self, answer: Answer) -> None:
        """Resolve with y / n / a; `a` does nothing where the gate would ask again anyway."""
        if answer == "always" and not self.always_offered:
            self.notify(
                f"'always' is not offered: the {self.request.rule} asks every time", severity="warning"
            )
            return
        self.dismiss((answer, ""))

    def action_explain(self) -> None:
        """Show the line where the person says why not."""
        why = self.query_one("#why", Input)
        why.disabled = False
        why.display = True
        why.focus()

    def action_interrupt(self) -> None:
        """Esc: refuse this call and stop the turn."""
        self.dismiss(None)

    @on(Input.Submitted, "#why")
    def _explained(self, event: Input.Submitted) -> None:
        self.dismiss(("no", event.value.strip()))


class ConfirmScreen(ModalScreen[bool]):
    """A slash command's yes/no question (an undo of other sessions' changes, a file outside the project)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.question), id="question")
            yield Static(Text("[y] yes   [n] no   [Esc] no"), id="keys")

    def action_answer(self, yes: bool) -> None:
        """Resolve with the answer."""
        self.dismiss(yes)


class TrustScreen(ModalScreen[bool]):
    """A new folder that would change asi-agent's settings: what it would change, then t (trust it, kept)
    or n / Esc (not now: its settings can only narrow yours for this chat)."""

    AUTO_FOCUS = "#changes"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "answer(True)", "trust"),
        Binding("n", "answer(False)", "not now"),
        Binding("escape", "answer(False)", "not now"),
    ]

    def __init__(self, folder: Path, changes: list[str]) -> None:
        super().__init__()
        home = Path.home()
        self.folder = f"~/{folder.relative_to(home)}" if home in folder.parents else str(folder)
        self.changes = changes

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text.assemble(("Trust ", ""), (self.folder, "bold"), "?"))
            yield Static(
                Text(
                    "This folder has settings of its own. Untrusted, they can only narrow yours; trusted, "
                    "asi-agent uses them in full, and these would change:"
                ),
                id="question",
            )
            with VerticalScroll(id="changes"):
                yield Static(Text("\n".join(f"• {change}" for change in self.changes)))
            yield Static(Text("[t] trust this folder (remembered)   [n] not now   [Esc] not now"), id="keys")

    def action_answer(self, trust: bool) -> None:
        """Resolve with the answer."""
        self.dismiss(trust)
_FIRST_RUN_KEYS = (
    "Keys: Tab / Shift+Tab move between the choices · Enter picks the highlighted one (in a box: checks the "
    "server) · ↑ ↓ choose an Ollama model · Ctrl+Q quits"
)


class FirstRunScreen(Screen[dict[str, Any]]):
    """No model is configured: a local Ollama, an OpenAI-compatible server, or the embedded model."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", "quit")]

    def __init__(self) -> None:
        super().__init__()
        self._checking = False
        """A check's request is in flight: another press waits for its answer instead of sending a second."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="firstrun"):
            yield Label(Text("Welcome to asi-agent: choose the model to work with", style="bold"))
            yield Static(
                Text("Your choice is written to the user config; change it there or with flags later."),
                classes="hint",
            )
            yield Static(Text(_FIRST_RUN_KEYS), classes="hint", id="firstrun-keys")
            yield Label(Text("1. A local Ollama", style="bold"))
            yield Static(Text(f"looking for Ollama at {firstrun.ollama_host()} …"), id="ollama-status")
            yield OptionList(id="ollama-models")
            # the offline choice comes before the server form, so it is in view on a 24-line terminal
            yield Label(Text("2. The embedded model (offline)", style="bold"))
            with Horizontal(classes="row"):
                yield Button("Use the embedded model", id="embedded")
                yield Static(
                    Text("SmolLM2-135M runs inside asi-agent: tiny, for trying things out."),
                    classes="hint side",
                )
            yield Label(Text("3. An OpenAI-compatible server", style="bold"))
            yield Input(placeholder="base URL, e.g. https://api.openai.com/v1", id="url")
            yield Input(placeholder="API key (empty for local servers)", password=True, id="key")
            yield Input(placeholder="model (empty: the server's only model)", id="model")
            with Horizontal(classes="row"):
                yield self._check_button()
                yield Static("", id="check-status")

    def on_mount(self) -> None:
        """Look for Ollama without freezing the screen; meanwhile Enter picks the choice that always works."""
        self.query_one("#ollama-models", OptionList).display = False
        self.query_one("#embedded", Button).focus()
        self._detect()

    @work(exclusive=True, group="detect")
    async def _detect(self) -> None:
        host = firstrun.ollama_host()
        models = await asyncio.to_thread(firstrun.ollama_models, host)
        status = self.query_one("#ollama-status", Static)
        if not models:
            status.update(Text(f"no Ollama answered at {host} (start it with `ollama serve`)"))
            return
        status.update(Text(f"Ollama at {host} has {len(models)} model(s); pick one:"))
        options = self.query_one("#ollama-models", OptionList)
        options.add_options(models)
        options.highlighted = 0
        options.display = True
        options.focus()

    @on(OptionList.OptionSelected, "#ollama-models")
    def _ollama_chosen(self, event: OptionList.OptionSelected) -> None:
        host = firstrun.ollama_host()
        values = {"provider": "ollama", "model": str(event.option.prompt)}
        if host != firstrun.OLLAMA_DEFAULT:
            values["base_url"] = host
        self._save(values)

    @on(Button.Pressed, "#embedded")
    def _embedded_chosen(self) -> None:
        self._save({"provider": "local"})

    @staticmethod
    def _check_button() -> Button:
        button = Button("Check and use", id="check", variant="primary")
        # Textual's Button ignores presses during its 0.2 s "pressed" effect; a local server refuses a key
        # faster than that, so the press right after the refusal was dropped. `_checking` is what keeps
        # one check to one request instead (disabling the button would move the focus to "embedded").
        button.active_effect_duration = 0
        return button

    @on(Button.Pressed, "#check")
    @on(Input.Submitted, "#url, #key, #model")
    def _check_pressed(self) -> None:
        if self._checking:
            return
        self._checking = True
        self._check()

    @work(exclusive=True, group="check")
    async def _check(self) -> None:
        try:
            values = await self._checked_values()
        finally:
            self._checking = False
        if values is not None:
            self._save(values)

    async def _checked_values(self) -> dict[str, Any] | None:
        """The config to write once the one request says the server and key are good; else None."""
        url = self.query_one("#url", Input).value.strip()
        key = self.query_one("#key", Input).value.strip()
        model = self.query_one("#model", Input).value.strip()
        status = self.query_one("#check-status", Static)
        if not url:
            status.update(Text("enter the server's base URL first", style="bold red"))
            return None
        status.update(Text("checking …"))
        try:
            offered = await asyncio.to_thread(firstrun.check_openai, url, key)
        except BackendError as exc:
            status.update(Text(str(exc), style="bold red"))
            return None
        if not model and len(offered) != 1:
            status.update(Text(f"pick a model: {', '.join(offered[:8]) or 'the server lists none'}"))
            return None
        if model and offered and model not in offered:
            status.update(Text(f"the server does not offer {model}; it has {', '.join(offered[:8])}"))
            return None
        return {"provider": "openai", "base_url": url, "api_key": key, "model": model or offered[0]}

    def _save(self, values: dict[str, Any]) -> None:
        path = firstrun.write_user_config(values)
        self.notify(f"saved to {path}")
        self.dismiss(values)


def _arguments(arguments: dict[str, Any]) -> str:
    text = json.dumps(arguments, ensure_ascii=False, indent=2)
    return text if len(text) <= ARGUMENT_CHARS else text[:ARGUMENT_CHARS] + "\n…"
