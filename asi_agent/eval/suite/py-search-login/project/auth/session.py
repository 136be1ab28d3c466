def authenticate_user(name, password):
    """Log a user in: check the password and open a session."""
    return name == 'admin' and password == 'secret'
