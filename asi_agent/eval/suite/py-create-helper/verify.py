import sys

from asi_agent.eval.verifying import check

sys.path.insert(0, ".")
from mathutils import clamp
check(clamp(5, 0, 3) == 3 and clamp(-1, 0, 3) == 0 and clamp(2, 0, 3) == 2, "clamp wrong")
