"""Tool calls from model output: native calls, the text forms of spec §4.4, and text mode (tool emulation)."""

from asi_agent.calls.parse import (
    STATUS_RE,
    ParsedReply,
    decode_arguments,
    new_call_id,
    normalize_native,
    parse_reply,
    parse_status,
    strip_status,
)
from asi_agent.calls.reasoning import ReasoningSplitter, split_reasoning
from asi_agent.calls.retry import REFUSAL_PATTERNS, detect_refusal, retry_reason
from asi_agent.calls.textmode import (
    project_history,
    render_call_line,
    render_contract,
    retry_prompt,
)

__all__ = [
    "REFUSAL_PATTERNS",
    "STATUS_RE",
    "ParsedReply",
    "ReasoningSplitter",
    "decode_arguments",
    "detect_refusal",
    "new_call_id",
    "normalize_native",
    "parse_reply",
    "parse_status",
    "project_history",
    "render_call_line",
    "render_contract",
    "retry_prompt",
    "retry_reason",
    "split_reasoning",
    "strip_status",
]
