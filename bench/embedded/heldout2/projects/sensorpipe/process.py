"""Summarise greenhouse sensor readings and flag the out-of-range ones."""
import json
import tomllib
from pathlib import Path

HERE = Path(__file__).parent


def load_config(path=HERE / "config.toml"):
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def load_readings(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["readings"]


def summarise(readings, decimals):
    by_sensor = {}
    for r in readings:
        by_sensor.setdefault(r["sensor"], []).append(r)
    summary = {}
    for sensor, rows in sorted(by_sensor.items()):
        temps = [r["temperature"] for r in rows]
        hums = [r["humidity"] for r in rows]
        summary[sensor] = {
            "avg_temperature": round(sum(temps) / len(temps), decimals),
            "avg_humidity": round(sum(hums) / len(hums), decimals),
            "samples": len(rows),
        }
    return summary


def flag_outliers(readings, thresholds):
    flagged = []
    for r in readings:
        if r["temperature"] > thresholds["temperature_max"]:
            flagged.append((r["sensor"], r["time"], "temperature"))
        if r["humidity"] > thresholds["humidity_max"]:
            flagged.append((r["sensor"], r["time"], "humidity"))
    return flagged


def main():
    cfg = load_config()
    readings = load_readings(HERE / cfg["input"]["path"])
    summary = summarise(readings, cfg["output"]["decimals"])
    for sensor, row in summary.items():
        print(sensor, row)
    for sensor, time, what in flag_outliers(readings, cfg["thresholds"]):
        print(f"ALERT {sensor} {time}: {what} too high")


if __name__ == "__main__":
    main()
