# Settings for the plotbook service.

DEFAULT_PORT = 5050
DEBUG = True
SECRET_KEY = "change-me-before-deploying"

MAX_PLOTS_PER_MEMBER = 2
SESSION_TIMEOUT_MINUTES = 45

SEASON_START = "03-15"
SEASON_END = "10-31"
