"""Symbol, reference and chunk extraction for Python, JavaScript, TypeScript/TSX and Go."""

from __future__ import annotations

from asi_agent.tools.code.index.chunks import WINDOW, identifier_parts, make_chunks, query_terms
from asi_agent.tools.code.index.symbols import Symbol, extract, language_of

PYTHON = """\
import os
from pkg.util import helper

MAX_SIZE = 10
registry = {}


class Store(Base):
    limit = 3

    @property
    def size(self):
        local = helper(self.items())
        return local

    async def fetch(self, key):
        return os.path.join(key)


def make_store():
    return Store()
"""

TYPESCRIPT = """\
export interface Shape { area(): number }
export type Id = string;
const MAX_ITEMS = 5;
let counter = 0;
export class Circle implements Shape {
  radius = 1;
  area(): number { return computeArea(this.radius); }
}
export const computeArea = (r: number) => Math.PI * r * r;
function build(): Circle { return new Circle(); }
"""

JAVASCRIPT = """\
class Queue {
  push(item) { this.items.push(item); }
}
function drain(queue) { return queue.pop(); }
const handler = function () { drain(new Queue()); };
var total = 0;
"""

GO = """\
package shop

type Cart struct { items []Item }
type Pricer interface { Price() int }
type Money int
const Currency = "EUR"
var defaultCart Cart

func (c *Cart) Total() int { return sum(c.items) }
func sum(items []Item) int { return len(items) }
"""


def kinds(symbols: list[Symbol]) -> dict[str, str]:
    return {s.qualname: s.kind for s in symbols}


def test_python_symbols_kinds_ranges_and_signatures():
    found = extract(PYTHON, "python").symbols
    assert kinds(found) == {
        "MAX_SIZE": "constant",
        "registry": "variable",
        "Store": "class",
        "Store.limit": "variable",
        "Store.size": "method",
        "Store.fetch": "method",
        "make_store": "function",
    }
    size = next(s for s in found if s.qualname == "Store.size")
    assert (size.start, size.end) == (11, 14)  # the decorator belongs to the method
    assert size.signature == "def size(self):"


def test_python_references_mark_calls_and_skip_self():
    refs = extract(PYTHON, "python").refs
    by_name = {(r.name, r.line): r for r in refs}
    assert by_name[("helper", 13)].call is True
    assert by_name[("helper", 2)].call is False  # the import
    assert by_name[("items", 13)].call is True
    assert by_name[("Base", 8)].call is False
    assert by_name[("join", 17)].column == 24
    assert not any(r.name == "self" for r in refs)


def test_python_with_syntax_errors_falls_back_to_tree_sitter():
    found = extract("print 'python 2'\ndef ok():\n    pass\nclass K:\n    def m(self): pass\n", "python")
    assert kinds(found.symbols) == {"ok": "function", "K": "class", "K.m": "method"}


def test_typescript_symbols():
    found = extract(TYPESCRIPT, "typescript")
    assert kinds(found.symbols) == {
        "Shape": "interface",
        "Id": "type",
        "MAX_ITEMS": "constant",
        "counter": "variable",
        "Circle": "class",
        "Circle.radius": "variable",
        "Circle.area": "method",
        "computeArea": "function",
        "build": "function",
    }
    calls = {r.name for r in found.refs if r.call}
    assert {"computeArea", "Circle"} <= calls


def test_tsx_and_javascript_symbols():
    tsx = extract("export function App() { return <div>{render()}</div>; }\n", "tsx")
    assert kinds(tsx.symbols) == {"App": "function"}
    assert any(r.name == "render" and r.call for r in tsx.refs)
    js = extract(JAVASCRIPT, "javascript")
    assert kinds(js.symbols) == {
        "Queue": "class",
        "Queue.push": "method",
        "drain": "function",
        "handler": "function",
        "total": "variable",
    }
    assert [r.line for r in js.refs if r.name == "drain" and r.call] == [5]


def test_go_symbols_and_method_receivers():
    found = extract(GO, "go")
    assert kinds(found.symbols) == {
        "Cart": "class",
        "Pricer": "interface",
        "Money": "type",
        "Currency": "constant",
        "defaultCart": "variable",
        "Cart.Total": "method",
        "sum": "function",
    }
    assert any(r.name == "sum" and r.call and r.line == 9 for r in found.refs)


def test_language_of_suffixes():
    assert [language_of(p) for p in ("a/b.py", "x.TSX", "m.mjs", "main.go", "README", "dir.v1/file")] == [
        "python",
        "tsx",
        "javascript",
        "go",
        "text",
        "text",
    ]


def test_chunks_follow_symbols_without_overlap():
    lines = ["import os", ""] + [f"x{i} = {i}" for i in range(60)] + ["def f():", "    return 1"]
    symbols = [Symbol("f", "f", "function", 63, 64, "def f():")]
    chunks = make_chunks(lines, symbols)
    covered = [line for c in chunks for line in range(c.start, c.end + 1)]
    assert covered == sorted(set(covered))  # no line in two chunks
    assert chunks[-1].symbol == "f" and (chunks[-1].start, chunks[-1].end) == (63, 64)
    assert chunks[0].end - chunks[0].start + 1 == WINDOW


def test_big_class_is_split_into_its_methods():
    body = ["class Big:", "    x = 1"]
    symbols = [Symbol("Big", "Big", "class", 1, 0, "class Big:")]
    for n in range(4):
        start = len(body) + 1
        body += [f"    def m{n}(self):"] + ["        pass"] * 59
        symbols.append(Symbol(f"m{n}", f"Big.m{n}", "method", start, start + 59, f"def m{n}(self):"))
    symbols[0] = symbols[0]._replace(end=len(body))
    chunks = make_chunks(body, symbols)
    assert [c.symbol for c in chunks] == ["Big", "Big.m0", "Big.m1", "Big.m2", "Big.m3"]


def test_identifier_splitting_for_index_and_query():
    assert set(identifier_parts("parseHTTPResponse(x) and snake_case").split()) == {
        "parse",
        "http",
        "response",
    }
    assert query_terms("where is getUserName defined?") == ["getusername", "get", "user", "name", "defined"]
    assert query_terms("load_config_file") == ["load", "config", "file"]
    assert query_terms("the") == ["the"]
