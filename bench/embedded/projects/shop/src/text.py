def tokens(text):
    """Split the text on white space and return the pieces."""
    return text.split()
