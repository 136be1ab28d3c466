WORK_MINUTES = 25
BREAK_MINUTES = 5


def format_clock(seconds):
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class Session:
    def __init__(self, minutes=WORK_MINUTES):
        self.remaining = minutes * 60

    def tick(self, seconds=1):
        self.remaining = max(0, self.remaining - seconds)
        return self.remaining

    def finished(self):
        return self.remaining == 0

    def run_for(self, seconds):
        for _ in range(seconds):
            self.tick()
        return self.finished()
