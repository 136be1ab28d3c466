"""The classifier's corpus: graded shell commands with their sources. Data only: classified, never run.

    catastrophic  refused in every mode, yolo included          (corpus_catastrophic.py)
    destructive   asks in every mode but yolo                   (corpus_destructive.py)
    everyday      build, test, git reads, installs, cleaning    (corpus_everyday.py)

Every entry is (command, grade, source key); `corpus_sources.SOURCES` says where each key comes from.
`UNCLEAR` lists commands that are not destructive in themselves but cannot be understood, or run as
root: they ask.
"""

from corpus_catastrophic import CATASTROPHIC as OWN_CATASTROPHIC
from corpus_dcg import DCG_CATASTROPHIC, DCG_DESTRUCTIVE, DCG_EVERYDAY
from corpus_destructive import DESTRUCTIVE as OWN_DESTRUCTIVE
from corpus_everyday import EVERYDAY as OWN_EVERYDAY
from corpus_guards import GUARD_CATASTROPHIC, GUARD_DESTRUCTIVE, GUARD_EVERYDAY
from corpus_sources import SOURCES

__all__ = ["CATASTROPHIC", "CORPUS", "DESTRUCTIVE", "EVERYDAY", "SOURCES", "UNCLEAR"]

CATASTROPHIC = (*OWN_CATASTROPHIC, *GUARD_CATASTROPHIC, *DCG_CATASTROPHIC)
DESTRUCTIVE = (*OWN_DESTRUCTIVE, *GUARD_DESTRUCTIVE, *DCG_DESTRUCTIVE)
EVERYDAY = (*OWN_EVERYDAY, *GUARD_EVERYDAY, *DCG_EVERYDAY)
CORPUS = (*CATASTROPHIC, *DESTRUCTIVE, *EVERYDAY)

UNCLEAR: tuple[str, ...] = (
    'echo "unbalanced',
    "rm -rf 'build",
    'eval "ls"',
    "echo $(ls",
    "sudo apt-get install x",
    "sudo ls",
    "doas make install",
    "su -",
    "sudo -i",
    "cat <<EOF | sh\n$(cat other.sh)\nEOF",
    "python3 <<EOF\nimport subprocess\nsubprocess.run(cmd)\nEOF",
    "some-tool | bash",
)
