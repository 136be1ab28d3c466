import argparse

from pomodoro.notify import times_up
from pomodoro.timer import BREAK_MINUTES, WORK_MINUTES, Session, format_clock


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="pomodoro")
    parser.add_argument("--minutes", type=int, default=WORK_MINUTES)
    parser.add_argument("--break-minutes", type=int, default=BREAK_MINUTES)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    session = Session(args.minutes)
    print("starting", format_clock(session.remaining))
    session.run_for(session.remaining)
    times_up()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
