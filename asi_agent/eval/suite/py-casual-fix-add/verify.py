import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from calc import add

check(add(2, 3) == 5 and add(-1, 1) == 0, "add still wrong")
