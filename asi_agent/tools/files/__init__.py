"""File tools: reading, creating and deleting files (`ops`), edits (`edit`), the text codec (`textio`), the
change journal (`journal`), history and undo (`history`) and dry-run previews (`preview`).
"""
