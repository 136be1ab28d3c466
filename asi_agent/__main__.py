"""`python -m asi_agent` is the `asi-agent` command."""

import sys

from asi_agent.ui.cli import main

sys.exit(main())
