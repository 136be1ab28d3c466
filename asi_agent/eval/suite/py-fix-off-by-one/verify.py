import sys

from asi_agent.eval.verifying import check

sys.path.insert(0, ".")
from lists import last_items
check(last_items([1, 2, 3, 4], 2) == [3, 4], "still wrong")
