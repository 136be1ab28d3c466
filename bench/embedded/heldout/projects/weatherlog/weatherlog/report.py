"""Text reports for readings."""

from weatherlog.convert import c_to_f


def format_reading(reading, fahrenheit=False):
    temp = reading["temp_c"]
    unit = "C"
    if fahrenheit:
        temp = c_to_f(temp)
        unit = "F"
    return f"{reading['station']}: {temp:.1f} {unit}"


def summary(readings):
    if not readings:
        return "No readings yet"
    temps = [r["temp_c"] for r in readings]
    return f"{len(readings)} readings, min {min(temps):.1f} C, max {max(temps):.1f} C"


def legacy_format(reading):
    # old semicolon format, kept for the 0.3 shell scripts
    return "%s;%s" % (reading["station"], reading["temp_c"])
