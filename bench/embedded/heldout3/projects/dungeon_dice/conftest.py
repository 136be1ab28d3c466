# Lets the tests import game.py and monsters.py from the project root.
