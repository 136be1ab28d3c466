# Settings for the ferry timetable API.

WELCOME_MESSAGE = "Welcome aboard! See /sailings for today's departures."

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100

# how long clients may cache timetable responses
CACHE_SECONDS = 300

ALLOWED_ORIGINS = [
    "http://localhost:3000",
    "https://ferries.example.org",
    "https://staging.ferries.example.org",
]
