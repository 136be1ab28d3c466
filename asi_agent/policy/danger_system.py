"""Rules for the machine: disks, power, processes, firewall, services, users, packages, containers."""

from __future__ import annotations

from collections.abc import Sequence

from asi_agent.policy.danger_common import Checker, RuleContext, always, has_flag, split, subcommands, words
from asi_agent.policy.danger_paths import Finding, ask, block_device, catastrophic, refuse, remote, worst

__all__ = ["SYSTEM_RULES", "device_tool"]

_MACHINE = remote("this machine")
_REGISTRY = remote("the package registry")
_DISK = remote("disk")


def device_tool(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """Formatting and partitioning tools: refused on a disk device, asked on anything else."""
    device = next((a for a in args if block_device(a)), None)
    reading = _READING.get(ctx.program, {"-l", "--list", "-s", "--help", "--version", "print", "-V"})
    listing = reading & set(args)
    if device and not listing:
        return refuse(f"{ctx.program} on the disk device {device}")
    if listing:
        return None
    return ask(f"{ctx.program} destroys the contents of what it is given", *split(args)[1][-1:])


def _check_diskutil(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verb = next(
        (a for a in args if a.lower().startswith(("erase", "zero", "secureerase", "partition", "reformat"))),
        None,
    )
    if verb is None:
        return None
    device = next((a for a in args if block_device(a) or a.startswith("disk")), None)
    return (
        refuse(f"diskutil {verb} on the disk {device}")
        if device
        else ask(f"diskutil {verb} erases a disk", _MACHINE)
    )


def _check_kill(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    targets = [a for i, a in enumerate(args) if i > 0 or not (a.startswith("-") and a != "-1")]
    if "-1" in targets or "1" in targets:
        return refuse("kill of every process (or of init)")
    return None


def _check_power(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    if {"-c", "--help", "--version", "-k"} & set(args):
        return None
    return refuse(f"{ctx.program} stops or restarts the machine")


def _check_systemctl(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    if verbs[:1] and verbs[0] in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "rescue"):
        return refuse(f"systemctl {verbs[0]} stops or restarts the machine")
    if verbs[:1] and verbs[0] in ("stop", "disable", "mask", "kill", "isolate"):
        return ask(f"systemctl {verbs[0]} stops system services", _MACHINE)
    return None


def _check_init(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    return (
        refuse(f"{ctx.program} {args[0]} stops or restarts the machine")
        if args[:1] in (["0"], ["6"])
        else None
    )


def _check_crontab(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, _ = split(args)
    if has_flag(options, "r"):
        return refuse("crontab -r deletes every scheduled job")
    return None if has_flag(options, "l") else ask("replaces or edits the crontab", _MACHINE)


def _check_su(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    script = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-c", "--command")), None)
    nested = ctx.script(script) if script is not None else None
    return worst([ask("su runs commands as another user", _MACHINE), nested])


def _check_firewall(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    flush = {"-F", "--flush", "-X", "--delete-chain", "-P", "--policy", "flush", "reset", "disable"}
    if flush & set(args) or "--panic-on" in args:
        return ask(f"{ctx.program} flushes or replaces the firewall rules", _MACHINE)
    return None


def _check_service(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verb = next((a for a in args[1:2] if a in ("stop", "disable", "--stop-all")), None) or (
        "--stop-all" if "--stop-all" in args else None
    )
    return ask(f"service {verb} stops system services", _MACHINE) if verb else None


def _check_packages(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    removal = {"remove", "purge", "autoremove", "erase", "uninstall", "rm", "zap"}
    if (verbs[:1] and verbs[0] in removal) or (ctx.program == "pacman" and has_flag(split(args)[0], "R")):
        return ask(f"{ctx.program} removes installed system packages", _MACHINE)
    return None


def _check_ssh(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """A command run on another machine: judged like a local one, and never allowed without asking."""
    with_value = {"-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-E", "-S", "-W", "-b", "-c", "-m"}
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in with_value else 1
    remote_command = " ".join(args[index + 1 :])
    if not remote_command:
        return None
    found = ctx.script(remote_command)
    if found.level == "safe":
        return None
    return ask(f"on another machine: {found.reason}", remote(f"the machine {args[index]}"))


_PUBLISH = (("publish", "", "publishes to the package registry"), ("unpublish", "", "removes a package"))
_DOCKER = subcommands(
    *((f"{kind} prune", "", "deletes unused objects") for kind in ("system", "image", "container", "volume")),
    ("network prune", "", "deletes unused networks"),
    ("builder prune", "", "deletes the build cache"),
    ("volume rm", "", "deletes volumes and their data"),
    ("compose down", "-v|--volumes|--rmi", "deletes the project's volumes"),
    ("rm", "-f|--force|-v|--volumes", "kills and deletes running containers"),
    ("rmi", "-f|--force", "force-deletes images"),
    target=remote("the container engine"),
)


def _check_docker(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """`docker run -v /:/host …` or `--privileged` hands the host to the container; else the prune rules."""
    verbs = words(args)
    if verbs[:1] not in (["run"], ["create"]):
        return _DOCKER(args, ctx)
    if "--privileged" in args:
        return ask(f"{ctx.program} run --privileged can change the host", _MACHINE)
    for index, arg in enumerate(args):
        value = args[index + 1] if arg in ("-v", "--volume") and index + 1 < len(args) else ""
        value = arg.split("=", 1)[1] if arg.startswith(("--volume=", "-v=")) else value
        place = catastrophic(value.split(":", 1)[0]) if value else None
        if place:
            return ask(f"{ctx.program} run mounts {place} of the host into the container", _MACHINE)
    return None


# blkdiscard's -l is a length and -s means --secure: only help and version are readings
_READING = {"blkdiscard": {"-h", "--help", "-V", "--version"}}
_HDPARM_WRITES = (
    "--security-erase", "--security-set-pass", "--security-disable", "--trim-sector-ranges", "--write-sector",
    "--make-bad-sector", "--fwdownload", "--dco-restore", "--dco-setmax", "-N",
)  # fmt: skip


def _check_hdparm(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """hdparm reads and tunes a drive; its erase, password, firmware and sector-writing options destroy."""
    if any(a.startswith(_HDPARM_WRITES) for a in args):
        return device_tool([a for a in args if a not in ("-l", "-s")], ctx)
    return None


_LISTING = {
    "wipefs": lambda args: (
        not ({"-a", "--all", "-o", "--offset"} & {a.split("=", 1)[0] for a in args})
        and not any(a.startswith("-") and not a.startswith("--") and "a" in a for a in args)
    ),
    "sgdisk": lambda args: (
        bool({"-p", "--print", "-i", "--info", "-v", "--verify"} & set(args))
        and len([a for a in args if a.startswith("-")]) == 1
    ),
}


def _check_listing_tool(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    """wipefs without `-a` and `sgdisk -p` only print what is there; else a device tool."""
    return None if _LISTING[ctx.program](args) else device_tool(args, ctx)


def _check_nvme(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    verbs = words(args)
    if not verbs or verbs[0] not in ("format", "sanitize", "delete-ns", "detach-ns", "write-zeroes"):
        return None
    device = next((a for a in args if block_device(a)), None)
    if device:
        return refuse(f"nvme {verbs[0]} on the disk device {device}")
    return ask(f"nvme {verbs[0]} erases a disk or a namespace", _MACHINE)


def _check_modprobe(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    reading = {
        "-n",
        "--dry-run",
        "-D",
        "--show-depends",
        "-c",
        "--showconfig",
        "-h",
        "--help",
        "-V",
        "--version",
    }
    if reading & set(args) or not words(args):
        return None
    verb = "removes" if has_flag(split(args)[0], "r", "--remove") else "loads"
    return ask(f"modprobe {verb} kernel modules", _MACHINE)


def _check_sysctl(args: Sequence[str], ctx: RuleContext) -> Finding | None:
    options, operands = split(args)
    writes = has_flag(options, "w", "--write", "--load", "--system") or has_flag(options, "p")
    if writes or any("=" in o for o in operands):
        return ask("sysctl changes kernel settings", _MACHINE)
    return None


def _accounts(*reading: str) -> Checker:
    """Account and password tools: everything but their listing options changes system accounts."""

    def check(args: Sequence[str], ctx: RuleContext) -> Finding | None:
        if set(reading) & set(args):
            return None
        return ask(f"{ctx.program} changes system accounts, groups or passwords", _MACHINE)

    return check


_DEVICE_TOOLS = (
    "mke2fs", "mkswap", "fdisk", "sfdisk", "gdisk", "cfdisk", "parted", "blkdiscard",
    "badblocks", "mdadm",
)  # fmt: skip

SYSTEM_RULES: dict[str, Checker] = {
    **dict.fromkeys(_DEVICE_TOOLS, device_tool),
    **dict.fromkeys(_LISTING, _check_listing_tool),
    "hdparm": _check_hdparm,
    "nvme": _check_nvme,
    "cryptsetup": subcommands(
        ("luksFormat", "", "erases the disk"),
        ("erase", "", "erases the keys"),
        ("luksErase", "", "erases the keys"),
        ("luksKillSlot", "", "destroys a key"),
        ("luksRemoveKey", "", "destroys a key"),
        ("reencrypt", "", "rewrites every block of the disk"),
        target=_DISK,
    ),
    "dmsetup": subcommands(
        *(
            (verb, "", "removes or clears device-mapper devices")
            for verb in ("remove", "remove_all", "wipe_table", "clear")
        ),
        target=_MACHINE,
    ),
    "losetup": lambda args, ctx: (
        ask("losetup detaches loop devices", _MACHINE)
        if {"-D", "--detach-all", "-d", "--detach"} & set(args)
        else None
    ),
    **dict.fromkeys(
        (
            "usermod",
            "useradd",
            "adduser",
            "addgroup",
            "groupadd",
            "groupmod",
            "gpasswd",
            "chsh",
            "chfn",
            "newusers",
            "vipw",
            "vigr",
            "chpasswd",
        ),
        _accounts("-h", "--help"),
    ),
    "passwd": _accounts("-S", "--status", "-h", "--help"),
    "chage": _accounts("-l", "--list", "-h", "--help"),
    "visudo": _accounts("-c", "--check", "-h", "--help"),
    **dict.fromkeys(("insmod", "rmmod"), always("{program} loads or removes kernel modules", _MACHINE)),
    "modprobe": _check_modprobe,
    "sysctl": _check_sysctl,
    "setenforce": always("{program} switches SELinux enforcement", _MACHINE),
    **dict.fromkeys(("lvremove", "vgremove", "pvremove"), always("{program} deletes volumes", "remote:disk")),
    "zpool": subcommands(
        ("destroy", "", "destroys a pool"), ("labelclear", "", "erases a disk label"), target=_DISK
    ),
    "zfs": subcommands(
        ("destroy", "", "destroys datasets and snapshots"), ("rollback", "", "discards data"), target=_DISK
    ),
    "btrfs": subcommands(("subvolume delete", "", "deletes subvolumes"), target=_DISK),
    "diskutil": _check_diskutil,
    "kill": _check_kill,
    "killall": always("{program} kills every process with that name", _MACHINE),
    "pkill": lambda args, ctx: (
        None if "-0" in args else ask("pkill kills every process that matches", _MACHINE)
    ),
    "killall5": always("{program} kills every process", _MACHINE),
    **dict.fromkeys(("reboot", "poweroff", "halt", "shutdown", "kexec"), _check_power),
    "systemctl": _check_systemctl,
    "service": _check_service,
    "init": _check_init,
    "telinit": _check_init,
    "crontab": _check_crontab,
    "su": _check_su,
    "ssh": _check_ssh,
    **dict.fromkeys(("iptables", "ip6tables", "nft", "ufw", "firewall-cmd", "pfctl"), _check_firewall),
    **dict.fromkeys(
        ("userdel", "deluser", "groupdel", "delgroup"), always("{program} deletes accounts", _MACHINE)
    ),
    "swapoff": always("{program} disables swap", _MACHINE),
    "chattr": always("{program} changes file attributes (immutable flags)", _MACHINE),
    **dict.fromkeys(
        ("apt", "apt-get", "dnf", "yum", "zypper", "pacman", "snap", "brew", "port"), _check_packages
    ),
    "conda": subcommands(("remove", "", "removes packages"), ("env remove", "", "deletes an environment")),
    "npm": subcommands(*_PUBLISH, target=_REGISTRY),
    "pnpm": subcommands(*_PUBLISH, target=_REGISTRY),
    "yarn": subcommands(*_PUBLISH, ("npm publish", "", "publishes to the registry"), target=_REGISTRY),
    **dict.fromkeys(("cargo", "poetry", "hatch", "flit", "uv"), subcommands(_PUBLISH[0], target=_REGISTRY)),
    "twine": subcommands(("upload", "", "publishes to the package registry"), target=_REGISTRY),
    "gem": subcommands(
        ("push", "", "publishes to the package registry"),
        ("yank", "", "removes a published version"),
        target=_REGISTRY,
    ),
    "pip": subcommands(("uninstall", "", "removes installed packages")),
    "pip3": subcommands(("uninstall", "", "removes installed packages")),
    "docker": _check_docker,
    "podman": _check_docker,
    "docker-compose": subcommands(("down", "-v|--volumes|--rmi", "deletes the project's volumes")),
}
