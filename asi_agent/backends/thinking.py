"""Reasoning that a server sends apart from the text (OpenAI-compatible `reasoning_content` or
`reasoning`, Ollama's `thinking`) goes back into the reply between `<think>` tags: the call parser keeps
it out of action, the agent streams it as reasoning, and it is never sent back to the model.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ThinkingText"]


@dataclass(slots=True)
class ThinkingText:
    """Merges the reasoning and content fields of streamed deltas into one text."""

    inside: bool = False

    def piece(self, reasoning: object, content: object) -> str:
        """The text one delta adds, given its reasoning and content fields (either may be missing)."""
        text = ""
        if isinstance(reasoning, str) and reasoning:
            text += reasoning if self.inside else "<think>" + reasoning
            self.inside = True
        if isinstance(content, str) and content:
            text += "</think>" + content if self.inside else content
            self.inside = False
        return text

    def end(self) -> str:
        """What closes the reply: `</think>` when it ended while reasoning."""
        closing = "</think>" if self.inside else ""
        self.inside = False
        return closing
