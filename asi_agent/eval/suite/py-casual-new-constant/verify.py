import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
import settings

check(settings.MAX_RETRIES == 5, "MAX_RETRIES is not 5")
check(settings.TIMEOUT == 10, "TIMEOUT changed")
