import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from parse import parse_int

check(parse_int("42") == 42 and parse_int("-3") == -3, "parse_int still wrong")
