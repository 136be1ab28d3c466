import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from nums import is_even

check(is_even(4) and not is_even(3), "is_even still wrong")
from asi_agent.eval.verifying import shown

check(shown("2 passed, 0 failed", tool="run_tests"), "the tests were not run after the fix")
