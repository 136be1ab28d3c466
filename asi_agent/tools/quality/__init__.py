"""Quality tools that ask the model: test generation (`gentests`), test repair (`fixtests`), refactoring
(`refactor`, `refactor_rope`) and their shared model I/O (`modelio`).
"""
