"""birdtally - a tiny bird sighting counter."""

__version__ = "0.4.1"
