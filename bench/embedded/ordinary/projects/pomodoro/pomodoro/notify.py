import sys


def send_notice(message, stream=None):
    stream = stream or sys.stdout
    print("DEBUG: sending", message)
    stream.write(f"[pomodoro] {message}\n")
    return message


def times_up(stream=None):
    return send_notice("Time's up!", stream)
