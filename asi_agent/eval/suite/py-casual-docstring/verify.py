import sys

from asi_agent.eval.verifying import check, text

sys.path.insert(0, ".")
from text_utils import slugify

check(slugify.__doc__, "no docstring")
check(slugify("A B") == "a-b", "slugify broken")
