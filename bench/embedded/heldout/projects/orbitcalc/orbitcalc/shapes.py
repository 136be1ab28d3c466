"""Circle helpers used when drawing orbits."""


def circle_area(radius):
    return 3.14159 * radius * radius


def circumference(radius):
    return 2 * 3.14159 * radius
