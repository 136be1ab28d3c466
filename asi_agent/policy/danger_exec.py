"""Code run by interpreters: `-c`/`-e` bodies, here-documents and here-strings, pipes into a shell,
downloaded or decoded programs. What cannot be inspected asks; it is never "safe".

Shell code is classified as a command line of its own. Other languages are scanned for what runs
commands (`os.system`, `child_process`, `system()`), deletes files, evaluates built code or downloads
code; string literals of code that runs commands are classified as command lines.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence

from asi_agent.policy.danger_infra import destructive_sql
from asi_agent.policy.danger_paths import (
    UNKNOWN,
    Finding,
    ask,
    catastrophic,
    refuse,
    remote,
    worst,
    write_target,
)

__all__ = [
    "DOWNLOADERS",
    "DOWNLOAD_WORD",
    "Script",
    "code_connects",
    "downloaded_names",
    "family",
    "judge_awk",
    "judge_feed",
    "judge_inline",
    "judge_interpreter",
    "program_source",
]

Script = Callable[[str], Finding]

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox-sh"})
DOWNLOADERS = frozenset(
    {"curl", "wget", "fetch", "aria2c", "http", "https", "xh", "iwr", "Invoke-WebRequest"}
)
DECODERS = frozenset(
    {"base64", "base32", "xxd", "uudecode", "openssl", "gunzip", "zcat", "gzip", "rev", "tr"}
)
DOWNLOAD_WORD = re.compile(r"(?<![\w.-])(?:curl|wget|fetch|aria2c|xh)(?![\w.-])")
_PYTHON = re.compile(r"python[\d.]*|pypy3?")
_FAMILIES = {
    "perl": "perl", "ruby": "ruby", "node": "node", "nodejs": "node", "bun": "node", "deno": "node",
    "php": "php", "awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk", "pwsh": "pwsh",
    "powershell": "pwsh", "Rscript": "r", "lua": "lua", "osascript": "osa",
}  # fmt: skip
# interpreter family → (letters of its inline-code flags, options that take a value)
_INTERPRETERS: dict[str, tuple[str, frozenset[str]]] = {
    "sh": ("c", frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})),
    "python": ("c", frozenset({"-W", "-X"})),
    "perl": ("eE", frozenset({"-I", "-M", "-m"})),
    "ruby": ("e", frozenset({"-I", "-r"})),
    "node": ("ep", frozenset({"-r", "--require"})),
    "php": ("r", frozenset({"-d", "-c"})),
    "pwsh": ("cC", frozenset({"-ExecutionPolicy", "-File"})),
    "r": ("e", frozenset()),
    "lua": ("e", frozenset({"-l"})),
    "osa": ("e", frozenset({"-l"})),
}
_RUNS = {
    "python": r"\bos\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*)|\bsubprocess\b|\bpty\.spawn"
    r"|\bcommands\.|__import__|from\s+(?:os|subprocess|pty)\s+import",
    "perl": r"\b(?:system|exec)\s*[(\"'\[{qQ$@]|`|\bqx\b|\bopen\s*\(?[^;]*\|",
    "ruby": r"\b(?:system|exec|spawn)\s*[(\"'%]|`|%x|IO\.popen|Open3",
    "node": r"child_process|\bexecSync\b|\bspawnSync\b|\bexecFileSync\b"
    r"|(?<![.\w])exec\s*\(|(?<![.\w])spawn\s*\(|Bun\.spawn|Deno\.(?:run|Command)",
    "php": r"\b(?:shell_exec|exec|system|passthru|popen|proc_open|pcntl_exec)\s*\(|`",
    "awk": r"\bsystem\s*\(|\|\s*getline|print[^;}]*\|",
    "pwsh": r"Invoke-Expression|\biex\b|Start-Process|cmd(?:\.exe)?\s*/c",
    "r": r"\bsystem2?\s*\(|\bshell\s*\(",
    "lua": r"os\.execute|io\.popen",
    "osa": r"do shell script",
}
_DELETES = {
    "python": r"rmtree|os\.(?:remove|unlink|rmdir|removedirs)|\.unlink\(|\.rmdir\(|send2trash",
    "perl": r"\bunlink\b|\brmtree\b|\brmdir\b|remove_tree",
    "ruby": r"FileUtils\.(?:rm|remove)\w*|File\.(?:delete|unlink)|Dir\.(?:rmdir|delete|unlink)",
    "node": r"\b(?:rmSync|rmdirSync|unlinkSync|removeSync)\s*\(|rimraf"
    r"|\b(?:fs|fsp|promises|Deno)\.(?:rm|rmdir|unlink|remove)\w*\s*\(",
    "php": r"\b(?:unlink|rmdir)\s*\(",
    "pwsh": r"Remove-Item|\brm\s+-r|\bdel\b|Clear-Content|Format-Volume",
    "r": r"unlink\s*\(|file\.remove\s*\(",
    "lua": r"os\.remove",
}
_EVALS = {
    "python": r"(?<![.\w])(?:exec|eval|compile)\s*\(|marshal\.loads|pickle\.loads",
    "perl": r"\beval\b",
    "ruby": r"\beval\b|instance_eval",
    "node": r"\beval\s*\(|new\s+Function|\bvm\.run",
    "php": r"\beval\s*\(|\bassert\s*\(",
}
_FETCHES = re.compile(
    r"urlopen|urllib|requests\.|httpx\.|http\.client|\bfetch\s*\(|https?\.get|LWP|Net::HTTP|open-uri"
    r"|file_get_contents\s*\(\s*['\"]https?|Invoke-WebRequest|\biwr\b|DownloadString"
)
_FORKS = re.compile(
    r"os\.fork\s*\(|fork\s+while|while\s*\(?\s*(?:1|true|True)\s*\)?\s*:?\s*\{?\s*(?:os\.)?fork"
)
_LITERAL = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|`([^`]*)`")
_AWK_WRITE = re.compile(r">>?\s*\"([^\"]+)\"")
_CLUSTER = re.compile(r"-[A-Za-z]+")
_LOOPBACK = re.compile(r"^(?:localhost|127(?:\.\d+){0,3}|::1|0\.0\.0\.0)$", re.I)


def family(program: str) -> str | None:
    """The interpreter family of a program (`sh`, `python`, `perl` …), or None."""
    if program in SHELLS:
        return "sh"
    return "python" if _PYTHON.fullmatch(program) else _FAMILIES.get(program)


def program_source(fam: str, args: Sequence[str]) -> tuple[str, str]:
    """Where an interpreter reads its program: ("code", text), ("module"|"file", name) or ("stdin", "")."""
    if fam == "awk":
        return _awk_source(args)
    letters, with_value = _INTERPRETERS[fam]
    index = 0
    while index < len(args):
        arg = args[index]
        if arg in ("--eval", "--print", "-Command", "-command", "eval") or (
            _CLUSTER.fullmatch(arg) and arg[-1] in letters
        ):
            return ("code", args[index + 1]) if index + 1 < len(args) else ("stdin", "")
        if fam == "python" and arg.startswith("-m"):
            return "module", arg[2:] or " ".join(args[index + 1 : index + 2])
        if arg in ("-", "/dev/stdin") or (fam == "sh" and arg == "-s"):
            return "stdin", ""
        if arg == "--" or not arg.startswith(("-", "+")):
            index += arg == "--"
            break
        index += 2 if arg in with_value else 1
    return ("file", args[index]) if index < len(args) else ("stdin", "")


def _awk_source(args: Sequence[str]) -> tuple[str, str]:
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-":
        if args[index] in ("-f", "--file") or args[index].startswith("-f"):
            return "file", args[index + 1] if index + 1 < len(args) else ""
        index += 2 if args[index] in ("-F", "-v", "-i", "-l", "--assign", "--field-separator") else 1
    return ("code", args[index]) if index < len(args) else ("stdin", "")


def judge_interpreter(
    program: str,
    fam: str,
    args: Sequence[str],
    fed: Sequence[str] | None,
    *,
    nested: Sequence[str],
    script: Script,
) -> Finding | None:
    """An interpreter's run: its inline code, code fed on its input (`fed`; None: unreadable input)."""
    kind, value = program_source(fam, args)
    findings: list[Finding | None] = []
    if kind == "code":
        findings.append(judge_inline(program, fam, value, script))
    elif kind == "module" and value == "pip" and "uninstall" in args:
        findings.append(ask("pip uninstall removes installed packages"))
    if any(DOWNLOAD_WORD.search(source) for source in nested):
        findings.append(ask(f"{program} runs code downloaded from the network: it cannot be inspected"))
    if kind == "stdin" and fed:
        findings += [judge_inline(program, fam, text, script) for text in fed]
    return worst(findings)


def judge_inline(program: str, fam: str, code: str, script: Script) -> Finding | None:
    """Inline code of an interpreter: shell code is classified; other languages are scanned."""
    if fam == "sh":
        found = script(code)
        return found if found.level != "safe" else None
    if fam == "awk":
        return judge_awk(program, code, script)
    literals = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(code)]
    findings: list[Finding | None] = []
    if re.search(_RUNS.get(fam, r"(?!)"), code):
        findings += _carried(code, literals, script)
        findings.append(ask(f"inline {program} code runs commands that cannot be fully inspected"))
    if re.search(_DELETES.get(fam, r"(?!)"), code):
        places = [p for p in map(catastrophic, literals) if p]
        findings.append(refuse(f"inline {program} code deletes {places[0]}") if places else None)
        findings.append(ask(f"inline {program} code deletes files", *(literals or [UNKNOWN])))
    if re.search(_EVALS.get(fam, r"(?!)"), code):
        fetched = " downloaded" if _FETCHES.search(code) else ""
        findings.append(ask(f"inline {program} code evaluates{fetched} code built at run time"))
    if _FORKS.search(code):
        findings.append(ask(f"inline {program} code forks processes in a loop"))
    findings.append(code_connects(program, code))
    sql = next((s for s in map(destructive_sql, literals) if s), None)
    findings.append(
        ask(f"inline {program} code runs `{sql}`, which deletes data", "remote:a database") if sql else None
    )
    return worst(findings)


_CONNECTS = re.compile(
    r"[.:]connect\s*\(|create_connection|fsockopen|stream_socket_client|socket_connect|TCPSocket|IO::Socket"
    r"|\bconnect\s*\(\s*S\b|require\(\s*['\"](?:net|dgram|tls)['\"]\s*\)|net\.connect|createConnection"
    r"|socket\.tcp|/inet/tcp/|/inet/udp/|Net\.Sockets|/dev/tcp/"
)
_SENDS = re.compile(
    r"urlopen\s*\([^()]*(?:\([^()]*\)[^()]*)*,(?!\s*(?:timeout|context|cafile|capath))|requests\.(?:post|put|patch)\s*\(|\.request\s*\("
    r"|http\.client|Net::HTTP\.post|method\s*[:=]\s*['\"](?:POST|PUT)"
)
_HOST_LITERAL = re.compile(
    r"['\"/](?P<host>(?:\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}|localhost|[0-9a-f:]*::[0-9a-f:]+)['\":/]",
    re.I,
)


def code_connects(program: str, code: str) -> Finding | None:
    """Inline code that opens a socket (a reverse shell's first half) or sends a request with a body."""
    connects, sends = _CONNECTS.search(code), _SENDS.search(code)
    if not (connects or sends):
        return None
    literal = _HOST_LITERAL.search(code)
    host = literal["host"] if literal else "the network"
    what = "opens a network connection" if connects else "sends data in a request"
    if _LOOPBACK.match(host):
        return ask(f"inline {program} code {what} to this machine") if connects else None
    return ask(f"inline {program} code {what} to {host}", remote(host))


_LIST = re.compile(r"\[([^\[\]]*)\]")


def _carried(code: str, literals: Sequence[str], script: Script) -> list[Finding]:
    """The commands in code that runs commands: each string literal, and each list of them as one argv."""
    texts = [t for t in literals if t.strip()]
    for listed in _LIST.findall(code):
        words = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(listed)]
        texts += [" ".join(words)] if len(words) > 1 else []
    return [f for f in map(script, texts) if f.level != "safe"]


def judge_awk(program: str, code: str, script: Script) -> Finding | None:
    """awk programs: `system()` and pipes run commands, `print > "file"` writes files."""
    findings = [write_target(target) for target in _AWK_WRITE.findall(code)]
    findings.append(code_connects(program, code))
    if re.search(_RUNS["awk"], code):
        literals = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(code)]
        findings += _carried(code, literals, script)
        findings.append(ask(f"{program} runs commands (system() or a pipe) that cannot be fully inspected"))
    return worst(findings)


def judge_feed(
    upstream: Sequence[tuple[str, Sequence[str]]], fed: Sequence[str], program: str, fam: str, script: Script
) -> Finding | None:
    """What flows down a pipe into an interpreter reading its program from input.

    `upstream`: (program, argv) of the commands before it; `fed`: texts known to flow (echo, cat <<EOF).
    """
    programs = [name for name, _ in upstream]
    if any(name in DOWNLOADERS for name in programs):
        return ask(f"pipes downloaded content into {program}: it cannot be inspected first")
    if any(name in DECODERS for name in programs) or any(_escapes(name, argv) for name, argv in upstream):
        return ask(f"decodes hidden text and runs it with {program}: it cannot be inspected")
    if not fed:
        return ask(f"runs the output of {programs[-1]} as a {program} program: it cannot be inspected")
    return worst(judge_inline(program, fam, text, script) for text in fed)


def _escapes(program: str, argv: Sequence[str]) -> bool:
    """`echo -e` and `printf` with escapes turn text into other text before it runs."""
    if program == "printf":
        return any("\\" in a or "%b" in a for a in argv[1:2])
    return (
        program == "echo" and any(a.startswith("-") and "e" in a for a in argv[1:]) and "\\" in " ".join(argv)
    )


def downloaded_names(program: str, argv: Sequence[str], redirects: Sequence[tuple[str, str]]) -> set[str]:
    """Base names of files a downloader writes (`curl -o x.sh`, `wget URL`, `curl URL > x.sh`)."""
    if program not in DOWNLOADERS:
        return set()
    names = {posixpath.basename(t) for op, t in redirects if op in (">", ">>", ">|")}
    urls = [a for a in argv if "://" in a]
    for index, arg in enumerate(argv):
        value = argv[index + 1] if index + 1 < len(argv) else ""
        named = arg in ("-o", "--output", "--output-document") or (arg == "-O" and program != "curl")
        if named and value and not value.startswith("-"):
            names.add(posixpath.basename(value))
        if (arg in ("-O", "--remote-name") and program == "curl") or (program == "wget" and "-O" not in argv):
            names.update(posixpath.basename(u.split("?")[0]) for u in urls)
    return {n for n in names if n}
