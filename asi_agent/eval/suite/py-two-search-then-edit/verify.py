import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from net import config

check(config.TIMEOUT == 30, "TIMEOUT is not 30")
check(config.RETRIES == 2, "RETRIES changed")
