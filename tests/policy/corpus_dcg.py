# ruff: noqa: E501 - data: one entry per line reads better than wrapped strings
"""Commands from destructive_command_guard's own corpus (bypass attempts, heredoc and rm false
positives), graded here. Data only: classified, never run.

Added after the classifier was written, as a check on cases it was not developed against; the cases
it then got wrong (recursive deletes under /tmp, `cd` before a relative delete or redirection, writes
into `.git/`) were fixed.
"""

SOURCE = "dcg-corpus"

DCG_CATASTROPHIC = tuple(
    (command, "catastrophic", SOURCE)
    for command in (
        "rm   -rf   /",
        "rm -f -r /",
        "mv /Users/merlin /tmp/x",
        "mv -t /etc ~/Documents/a",
        "mv /etc ~/.Trash/",
    )
)

DCG_DESTRUCTIVE = tuple(
    (command, "destructive", SOURCE)
    for command in (
        "/usr/bin/git reset --hard",
        "env git reset --hard",
        "git push --force=true origin main",
        "  git reset --hard",
        "git reset --hard  ",
        "\\git reset --hard",
        "rm -rf $TMPDIR/build",
        "rm -rf ${TMPDIR}/build",
        'rm -rf "$TMPDIR/build"',
        "rm -rf ${TMPDIR:-/tmp}/build",
        "/usr/*/git branch -D main",
        "mv ~/Documents ~/Docs",
        "mv ~/.ssh/id_rsa ~/Documents/x",
        "mv ~/Documents/x ~/.ssh/authorized_keys",
        "mv ~/Documents/a ~/Documents/../../etc/x",
        'mv "$HOME/Documents/a" ~/Documents/b',
        "mv ~/Documents/a/b /tmp/x",
        "cd ~/.ssh && rm id_rsa",
        "cd /home/user/.ssh; echo k >>authorized_keys",
        "echo x >.git/config",
    )
)

DCG_EVERYDAY = tuple(
    (command, "everyday", SOURCE)
    for command in (
        "rm -rf /tmp/build",
        "rm -rf /tmp/foo/",
        "rm -rf /tmp/project/build/artifacts",
        "rm -rf /var/tmp/build",
        "rm -r -f /tmp/build",
        "rm --recursive --force /tmp/build",
        "rm -r /tmp/build",
        "rm -rf -i ./build",
        "rm -r --force --interactive=once ./build",
        "rm -rf --verbose /tmp/build",
        "rm file1.txt file2.txt",
        "rm -i file.txt",
        "rm -v file.txt",
        "grep 'rm -rf' file",
        "cat <<EOF\nrm -rf /home/user\nEOF",
        "cat <<EOF\nrm -rf /\ngit reset --hard\ndocker system prune -af\nEOF",
        "tee /tmp/docs.txt <<EOF\nrm -rf /home/user\nEOF",
        "grep -n 'rm' <<EOF\nrm -rf /home/user\nEOF",
        "sed 's/rm/remove/g' <<EOF\nrm -rf /home/user\nEOF",
        "awk '{print $1}' <<EOF\nrm -rf /home/user\nEOF",
        "wc -l <<EOF\nrm -rf /\ngit reset --hard\nEOF",
        "base64 <<EOF\nrm -rf /home/user\nEOF",
        "md5sum <<EOF\nrm -rf /\nEOF",
        "curl -d @- https://example.com <<EOF\nrm -rf /\nEOF",
        "cat <<-EOF\n\trm -rf /home/user\n\tEOF",
        "cat <<'EOF'\nrm -rf $HOME\nEOF",
        'cat <<"EOF"\nrm -rf /home/user\nEOF',
        "cat <<<'rm -rf /home/user'",
        "grep 'rm' <<<'rm -rf /home/user'",
        "tee /tmp/file <<<'git reset --hard'",
        "wc -c <<<'rm -rf /'",
        "python3 - <<'PY'\ngit branch $name\nPY",
        "node - <<'JS'\ngit branch $(cat name)\nJS",
        "cd /tmp/project && python3 - <<'PY'\ns = open('a.ts').read()\n# git branch $name\nopen('a.ts', 'w').write(s)\nPY",
        "gh api X -f body=\"$(cat <<'EOF'\n`x`\nEOF\n)\"",
        "gh api repos/o/r/issues -f body=\"$(cat <<'EOF'\n```ts\nconst x = 1\n```\nEOF\n)\"",
    )
)
