import io

from pomodoro.notify import send_notice, times_up


def test_send_notice_writes():
    out = io.StringIO()
    send_notice("hello", out)
    assert out.getvalue() == "[pomodoro] hello\n"


def test_times_up():
    out = io.StringIO()
    assert times_up(out) == "Time's up!"
