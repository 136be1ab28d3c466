import sys

from asi_agent.eval.verifying import check, text

check("DEBUG" not in text("compute.py"), "debug lines left")
sys.path.insert(0, ".")
from compute import compute
check(compute(2) == 5, "compute broken")
