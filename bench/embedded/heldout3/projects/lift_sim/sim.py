"""Discrete-tick simulation of a bank of elevators in an office block."""
import configparser
import random
from statistics import mean


def load_config(path="lift.ini"):
    cfg = configparser.ConfigParser()
    cfg.read(path)
    return cfg


class Elevator:
    def __init__(self, ident, capacity, door_ticks):
        self.ident = ident
        self.capacity = capacity
        self.door_ticks = door_ticks
        self.floor = 0
        self.riders = []
        self.doors_open_for = 0

    def step(self, waiting, now):
        """Advance one tick; return the wait times of anyone delivered."""
        if self.doors_open_for:
            self.doors_open_for -= 1
            return []
        delivered = [r for r in self.riders if r["to"] == self.floor]
        self.riders = [r for r in self.riders if r["to"] != self.floor]
        boarding = [p for p in waiting[self.floor]][: self.capacity - len(self.riders)]
        for p in boarding:
            waiting[self.floor].remove(p)
        self.riders.extend(boarding)
        if delivered or boarding:
            self.doors_open_for = self.door_ticks
        elif self.riders:
            self.floor += 1 if self.riders[0]["to"] > self.floor else -1
        elif self.floor > 0:
            self.floor -= 1  # idle lifts drift back down to the lobby
        return [now - r["arrived"] for r in delivered]


def run(cfg):
    floors = cfg.getint("building", "floors")
    rng = random.Random(cfg.getint("simulation", "seed"))
    rate = cfg.getfloat("simulation", "arrival_rate")
    lifts = [
        Elevator(i, cfg.getint("elevators", "capacity"), cfg.getint("elevators", "door_open_ticks"))
        for i in range(cfg.getint("elevators", "count"))
    ]
    waiting = {f: [] for f in range(floors)}
    waits = []
    for now in range(cfg.getint("simulation", "ticks")):
        if rng.random() < rate:
            start = cfg.getint("building", "lobby")
            waiting[start].append({"to": rng.randrange(1, floors), "arrived": now})
        for lift in lifts:
            waits.extend(lift.step(waiting, now))
    return waits


if __name__ == "__main__":
    results = run(load_config())
    if results:
        print(f"{len(results)} trips, mean wait {mean(results):.1f} ticks")
    else:
        print("nobody rode the lifts")
