import pathlib

import sys
from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
import utils

check(not hasattr(utils, "old_helper") and utils.helper() == 1, "utils.py wrong")
check(not pathlib.Path("utils_old.py").exists(), "utils_old.py still there")
