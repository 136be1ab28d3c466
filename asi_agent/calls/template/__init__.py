"""Call dialects learned from a model's own chat template (see `learn.py`), read by `reader.py`."""

from asi_agent.calls.template.learn import learn_shape, render_calls, template_hash
from asi_agent.calls.template.render import TemplateError, render_turns
from asi_agent.calls.template.shape import CallShape

__all__ = ["CallShape", "TemplateError", "learn_shape", "render_calls", "render_turns", "template_hash"]
