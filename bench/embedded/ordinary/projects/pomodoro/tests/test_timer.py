from pomodoro.timer import Session, format_clock


def test_format_clock():
    assert format_clock(125) == "02:05"


def test_session_starts_full():
    assert Session(2).remaining == 120


def test_run_for_finishes():
    session = Session(1)
    assert session.run_for(60) is True
