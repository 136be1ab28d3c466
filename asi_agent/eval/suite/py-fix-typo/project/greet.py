def greet(name):
    return f"Helo, {name}!"
