"""The code intelligence tools on real temporary projects: find_code_location, codebase_search,
get_cursor_context."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import CodebaseSearchArgs, FindCodeLocationArgs, GetCursorContextArgs
from asi_agent.tools.base import Cursor, ToolContext
from asi_agent.tools.code.index.embed import EMBEDDER_KEY
from asi_agent.tools.code.lookup import RESULT_CAP, codebase_search, find_code_location, get_cursor_context
from asi_agent.tools.files.journal import Journal

SERVICE = '''\
"""Orders service."""

from shop.pricing import compute_total

DEFAULT_CURRENCY = "EUR"


class OrderService:
    """Creates and stores orders."""

    def place_order(self, cart):
        total = compute_total(cart)
        self.save(total)
        return total

    def save(self, total):
        print(total)


def load_config_file(path):
    return open(path).read()
'''

PRICING = """\
def compute_total(cart):
    subtotal = sum(item.price for item in cart)
    return apply_discount(subtotal)


def apply_discount(amount):
    return amount * 0.9
"""

WEB = """\
export interface UserProfile { id: string }
export function getUserName(profile: UserProfile): string {
  return profile.id.toUpperCase();
}
"""

GO = """\
package shop

type Inventory struct { count int }

func (i *Inventory) Restock(n int) { i.count += n }
"""


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
async def ctx(tmp_path: Path) -> AsyncIterator[ToolContext]:
    write(tmp_path, "shop/service.py", SERVICE)
    write(tmp_path, "shop/pricing.py", PRICING)
    write(tmp_path, "web/user.ts", WEB)
    write(tmp_path, "inventory/stock.go", GO)
    write(tmp_path, "docs/guide.md", "# Guide\nThe car park opens at nine.\n")
    context = ToolContext(root=tmp_path, journal=Journal(tmp_path / ".asi"))
    yield context
    await context.aclose()


async def locate(ctx: ToolContext, search: str, **kwargs: object) -> str:
    return await find_code_location(FindCodeLocationArgs(search=search, **kwargs), ctx)  # type: ignore[arg-type]


# -- find_code_location --------------------------------------------------------------------------


async def test_contains_lists_symbols_in_the_documented_format(ctx: ToolContext):
    out = await locate(ctx, "order")
    assert "shop/service.py:8  class  OrderService — class OrderService:" in out
    assert "shop/service.py:11  method  OrderService.place_order — def place_order(self, cart):" in out


async def test_exact_matches_names_and_qualified_names(ctx: ToolContext):
    out = await locate(ctx, "save", searchType="exact")
    assert "OrderService.save" in out and "place_order" not in out
    qualified = await locate(ctx, "OrderService.save", searchType="exact")
    assert "shop/service.py:16  method  OrderService.save" in qualified


async def test_exact_falls_back_to_code_lines(ctx: ToolContext):
    out = await locate(ctx, "sum(item.price", searchType="exact")
    assert "No symbol matches; code lines" in out
    assert "shop/pricing.py:2  code  compute_total — subtotal = sum(item.price for item in cart)" in out


async def test_regex_over_names_then_lines(ctx: ToolContext):
    names = await locate(ctx, r"^(compute|apply)_", searchType="regex")
    assert "compute_total" in names and "apply_discount" in names and "OrderService" not in names
    lines = await locate(ctx, r"amount \* 0\.\d", searchType="regex")
    assert "shop/pricing.py:7  code  apply_discount" in lines
    with pytest.raises(ToolError, match="invalid regular expression"):
        await locate(ctx, "(unclosed", searchType="regex")


async def test_kind_search_types(ctx: ToolContext):
    classes = await locate(ctx, "Inventory", searchType="class")
    assert "inventory/stock.go:3  class  Inventory" in classes
    interfaces = await locate(ctx, "UserProfile", searchType="class")
    assert "interface  UserProfile" in interfaces
    functions = await locate(ctx, "restock", searchType="function")
    assert "method  Inventory.Restock" in functions
    variables = await locate(ctx, "CURRENCY", searchType="variable")
    assert "constant  DEFAULT_CURRENCY" in variables
    missing = await locate(ctx, "OrderService", searchType="function")
    assert missing.startswith("No function named like 'OrderService'")


async def test_path_and_file_type_filters(ctx: ToolContext):
    assert "getUserName" not in await locate(ctx, "get", path="shop")
    in_file = await locate(ctx, "total", path="shop/pricing.py")
    assert "compute_total" in in_file and "service.py" not in in_file
    only_ts = await locate(ctx, "user", fileType=".ts")
    assert "getUserName" in only_ts and "service.py" not in only_ts
    only_go = await locate(ctx, "i", fileType="go", searchType="contains")
    assert "stock.go" in only_go and ".py" not in only_go
    with pytest.raises(ToolError, match="does not exist"):
        await locate(ctx, "x", path="nowhere/else.py")
    with pytest.raises(PermissionDeniedError):
        await locate(ctx, "x", path="../outside")


async def test_find_definition_and_references(ctx: ToolContext):
    definition = await locate(ctx, "compute_total", findDefinition=True)
    assert "Definitions of compute_total (1):\nshop/pricing.py:1  function  compute_total" in definition
    assert "References" not in definition
    refs = await locate(ctx, "compute_total", findReferences=True)
    assert "shop/pricing.py:1  function  compute_total" in refs
    assert "shop/service.py:12:17  call  OrderService.place_order — total = compute_total(cart)" in refs
    assert "shop/service.py:3:1  reference  <module>" in refs
    dotted = await locate(ctx, "shop.pricing.compute_total", findDefinition=True)
    assert "shop/pricing.py:1  function  compute_total" in dotted
    assert "none found" in await locate(ctx, "other.compute_total", findDefinition=True)
    nothing = await locate(ctx, "comput", findDefinition=True)
    assert "none found" in nothing and "Similar names: compute_total" in nothing


async def test_results_are_capped_with_a_note(ctx: ToolContext):
    write(ctx.root, "gen/many.py", "".join(f"def handler_{n}():\n    pass\n" for n in range(RESULT_CAP + 7)))
    out = await locate(ctx, "handler_")
    assert out.count("function  handler_") == RESULT_CAP
    assert "… 7 more not shown" in out


async def test_edits_by_the_session_are_seen_at_once(ctx: ToolContext):
    await locate(ctx, "anything")
    path = write(ctx.root, "shop/pricing.py", PRICING + "\n\ndef refund(amount):\n    return -amount\n")
    ctx.last_location = (path, 10)  # what the edit tools record
    assert "function  refund" in await locate(ctx, "refund")


# -- codebase_search -----------------------------------------------------------------------------


async def search(ctx: ToolContext, query: str, **kwargs: object) -> str:
    return await codebase_search(CodebaseSearchArgs(query=query, **kwargs), ctx)  # type: ignore[arg-type]


async def test_natural_language_query_ranks_the_right_chunk_first(ctx: ToolContext):
    out = await search(ctx, "how is the discount applied to an amount?")
    first = out.split("\n\n")[1]
    assert first.startswith("1. shop/pricing.py:6-7  (apply_discount)")
    assert "def apply_discount(amount):" in first


async def test_identifier_splitting_both_ways(ctx: ToolContext):
    snake = await search(ctx, "loadConfigFile")
    assert snake.split("\n\n")[1].startswith("1. shop/service.py:20-21  (load_config_file)")
    camel = await search(ctx, "user name")
    assert "1. web/user.ts:2-4  (getUserName)" in camel


async def test_file_type_and_limit(ctx: ToolContext):
    out = await search(ctx, "total cart", fileType="py", limit=1)
    assert out.startswith("Top 1 results") and out.count("\n1. ") == 1 and "\n2. " not in out
    assert ".py:" in out
    assert "No code matches" in await search(ctx, "total", fileType="go")
    with pytest.raises(ToolError, match="no words"):
        await search(ctx, "?!")


class ConceptEmbedder:
    """A small real embedder: one dimension per concept, synonyms share a dimension."""

    name = "concepts-v1"
    concepts = (("car", "automobile", "vehicle"), ("money", "price", "discount"), ("user", "profile"))

    def __init__(self) -> None:
        self.calls = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [
            [float(sum(text.lower().count(w) for w in words)) + 0.01 for words in self.concepts]
            for text in texts
        ]


async def test_embeddings_are_fused_when_an_embedder_is_set(ctx: ToolContext):
    assert "No code matches" in await search(ctx, "automobile")
    embedder = ConceptEmbedder()
    ctx.state[EMBEDDER_KEY] = embedder
    out = await search(ctx, "automobile", limit=3)
    assert "docs/guide.md:1-2" in out.split("\n\n")[1]
    calls = embedder.calls
    await search(ctx, "automobile", limit=3)
    assert embedder.calls == calls + 1  # chunk vectors are stored: only the query is embedded again


# -- get_cursor_context --------------------------------------------------------------------------


async def context(ctx: ToolContext, **kwargs: object) -> str:
    return await get_cursor_context(GetCursorContextArgs(**kwargs), ctx)  # type: ignore[arg-type]


async def test_cursor_window_with_marker_and_enclosing_symbol(ctx: ToolContext):
    ctx.cursor = Cursor(Path("shop/service.py"), 12, 9)
    out = await context(ctx, linesBefore=1, linesAfter=2)
    assert out.startswith("Cursor: shop/service.py:12:9 (editor cursor)")
    assert "  11 |     def place_order(self, cart):\n→ 12 |         total = compute_total(cart)\n" in out
    assert "  14 |         return total" in out and "  10 |" not in out and "  15 |" not in out
    assert "Enclosing method: OrderService.place_order (lines 11-14)\n  def place_order(self, cart):" in out
    assert "Inside class: OrderService (lines 8-17)" in out
    plain = await context(ctx, semanticContext=False)
    assert "Enclosing" not in plain and "→ 12 |" in plain


async def test_callers_and_callees(ctx: ToolContext):
    ctx.cursor = Cursor(ctx.root / "shop" / "pricing.py", 2, 1)
    out = await context(ctx, includeCallers=True, includeCallees=True, semanticContext=False)
    assert (
        "Callers of compute_total (2):\n"
        "shop/service.py:3:1  reference  <module> — from shop.pricing import compute_total\n"
        "shop/service.py:12:17  call  OrderService.place_order — total = compute_total(cart)"
    ) in out
    assert "apply_discount() at line 3 → shop/pricing.py:6 function apply_discount" in out
    assert "sum()" not in out  # a builtin, not a project function


async def test_cursor_file_and_its_errors(ctx: ToolContext):
    cursor_file = ctx.state_dir / "cursor.json"
    cursor_file.parent.mkdir(parents=True, exist_ok=True)
    cursor_file.write_text(
        json.dumps({"path": str(ctx.root / "web" / "user.ts"), "line": 3}), encoding="utf-8"
    )
    out = await context(ctx, linesBefore=0, linesAfter=0)
    assert out.startswith("Cursor: web/user.ts:3:1 (.asi/cursor.json)")
    assert "Enclosing function: getUserName" in out
    for bad in ("not json", '{"path": "web/user.ts"}', '{"path": "web/missing.ts", "line": 1}', "[1]"):
        cursor_file.write_text(bad, encoding="utf-8")
        with pytest.raises(ToolError, match=r'\{"path": "src/app.py", "line": 42'):
            await context(ctx)


async def test_last_location_then_no_cursor_at_all(ctx: ToolContext):
    with pytest.raises(ToolError, match="--cursor PATH:LINE"):
        await context(ctx)
    ctx.last_location = (ctx.root / "shop" / "pricing.py", 99)
    out = await context(ctx, linesBefore=1, linesAfter=1)
    assert "shop/pricing.py:7:1 (last place the agent read or edited) (line 99 is past the end" in out
    assert "→ 7 |     return amount * 0.9" in out


async def test_session_end_closes_the_index(ctx: ToolContext):
    await locate(ctx, "x")
    assert ctx.cleanups
    await ctx.aclose()
    assert not ctx.cleanups
    assert (ctx.state_dir / "index" / "code.db").is_file()
    assert (ctx.state_dir / ".gitignore").read_text(encoding="utf-8") == "*\n"
