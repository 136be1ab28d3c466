"""Tool routing: all tools below the threshold; above it the core, recently used and most relevant tools."""

from __future__ import annotations

from collections.abc import Sequence

from asi_agent.messages import Message, ToolCall
from asi_agent.routing import RoutingConfig, builtin_names, rank_tools, routed_schemas, select_tools, tokenize
from asi_agent.tools.base import PluginArgs, ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import ToolRegistry, default_registry


async def _run(args: ToolArgs, ctx: ToolContext) -> str:
    return ""


def plugin(name: str, description: str, **params: str) -> ToolSpec:
    properties = {key: {"type": "string", "description": text} for key, text in params.items()}
    return ToolSpec(
        name,
        PluginArgs,
        _run,
        "execute",
        source="moss-tools.json",
        description=description,
        parameters={"type": "object", "properties": properties},
    )


PLUGINS = [
    plugin(
        "jira_create_issue", "Create a Jira issue in a project", projectKey="Project key", summary="Title"
    ),
    plugin("jira_search", "Search Jira issues with JQL", jql="Query"),
    plugin("k8s_pod_logs", "Read the logs of a Kubernetes pod", pod="Pod name"),
    plugin("k8s_scale", "Scale a deployment to a number of replicas", deployment="Deployment"),
    plugin("pdf_merge", "Merge several PDF files into one", paths="PDF files"),
    plugin("pdfExtractText", "Extract the text of a PDF document", path="PDF file"),
    plugin("slack_send_message", "Post a message to a Slack channel", channel="Channel", text="Message"),
    plugin("img_resize", "Resize an image to a width and height", path="Image"),
    plugin("cn_weather", "查询城市的天气预报", city="城市"),
    plugin("db_query", "Run a read-only SQL query on the database", sql="SQL statement"),
]


def registry() -> ToolRegistry:
    return ToolRegistry([*default_registry().specs(), *PLUGINS])


def user(text: str) -> list[Message]:
    return [Message("user", text)]


async def select(messages: Sequence[Message], *, threshold: int = 20, top_k: int = 2) -> list[str]:
    reg = registry()
    return await select_tools(reg, messages, core=builtin_names(reg), threshold=threshold, top_k=top_k)


def test_tokenize_splits_cases_and_makes_cjk_bigrams():
    assert tokenize("pdfExtractText jira_create-issue HTTPServer") == [
        "pdf",
        "extract",
        "text",
        "jira",
        "create",
        "issue",
        "http",
        "server",
    ]
    assert tokenize("查询天气 the issues") == ["查询", "询天", "天气", "issue"]


async def test_routing_off_below_the_threshold_returns_everything():
    reg = registry()
    assert await select_tools(reg, user("merge pdfs"), core=[], threshold=len(reg), top_k=1) == list(
        reg.names()
    )


async def test_routing_on_keeps_core_and_the_relevant_plugin():
    chosen = await select(user("Please merge these three PDF files into a single one"))
    builtins = builtin_names(registry())
    assert chosen[: len(builtins)] == builtins  # core first, in registry order
    extra = chosen[len(builtins) :]
    assert len(extra) == 2 and "pdf_merge" in extra
    assert "jira_create_issue" not in extra and "slack_send_message" not in extra


async def test_camel_case_names_and_chinese_requests_match():
    assert "pdfExtractText" in await select(user("extract the text from report.pdf"), top_k=1)
    assert "cn_weather" in await select(user("帮我查询北京的天气"), top_k=1)


async def test_latest_message_weighs_most():
    messages = [
        Message("user", "scale the deployment"),
        Message("assistant", "Done."),
        Message("user", "now post a message on the slack channel"),
    ]
    assert (await select(messages, top_k=1))[-1] == "slack_send_message"


async def test_recently_used_tools_are_kept():
    used = Message("assistant", "", (ToolCall("1", "img_resize", {"path": "a.png"}),))
    messages = [
        Message("user", "resize a.png"),
        used,
        Message("tool", "ok", tool_call_id="1"),
        Message("user", "now run a SQL query on the database"),
    ]
    chosen = await select(messages, top_k=1)
    assert "img_resize" in chosen and "db_query" in chosen


def test_rank_tools_orders_by_bm25():
    query = {term: 1.0 for term in tokenize("pod logs kubernetes")}
    assert rank_tools(PLUGINS, query)[0] == "k8s_pod_logs"
    assert rank_tools(PLUGINS, {"nothing": 1.0}) == []


class ConceptEmbedder:
    """Vectors counting the words of a few concepts (synonyms share a dimension); deterministic."""

    name = "concepts"
    concepts = (("photo", "picture", "image"), ("chat", "slack", "message"), ("ticket", "jira", "issue"))

    def __init__(self) -> None:
        self.calls = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [
            [sum(text.lower().count(w) for w in group) + 0.01 for group in self.concepts] for text in texts
        ]


async def test_embeddings_are_fused_with_the_lexical_ranking():
    reg = registry()
    embedder, cache = ConceptEmbedder(), {}
    core = builtin_names(reg)
    # No word in common with img_resize's text: only the embedder can find it.
    messages = user("enlarge my photo")
    assert rank_tools(PLUGINS, {term: 1.0 for term in tokenize("enlarge my photo")}) == []
    chosen = await select_tools(
        reg, messages, core=core, threshold=5, top_k=1, embedder=embedder, cache=cache
    )
    assert chosen[len(core) :] == ["img_resize"]
    assert ("concepts", "img_resize") in cache
    await select_tools(reg, messages, core=core, threshold=5, top_k=1, embedder=embedder, cache=cache)
    assert embedder.calls == 3  # tool vectors once, the query twice


async def test_routed_schemas_send_fewer_tools():
    reg = registry()
    every = reg.schemas("en")
    config = RoutingConfig(threshold=20, top_k=2)
    routed = await routed_schemas(reg, user("send a slack message"), locale="en", config=config)
    names = [s["function"]["name"] for s in routed]
    # Only the plugin that matches at all is added: a tool scoring zero is not worth its tokens.
    assert names == [s["function"]["name"] for s in every if s["function"]["name"] in builtin_names(reg)] + [
        "slack_send_message"
    ]
    unrouted = await routed_schemas(reg, user("x"), locale="en", config=RoutingConfig(threshold=100))
    assert [s["function"]["name"] for s in unrouted] == [s["function"]["name"] for s in every]
    # what goes to models states the closed choices that the published (spec-exact) schema only describes
    listing = next(s for s in unrouted if s["function"]["name"] == "list_directory")
    assert listing["function"]["parameters"]["properties"]["sortOrder"]["enum"] == ["asc", "desc"]
    published = next(s for s in every if s["function"]["name"] == "list_directory")
    assert "enum" not in published["function"]["parameters"]["properties"]["sortOrder"]
