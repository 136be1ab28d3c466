import hashlib


def check_password(user, password):
    return hashlib.sha256(password.encode()).hexdigest() == user.digest
