import math

G = 6.674e-11
EARTH_MASS = 5.972e24
EARTH_RADIUS = 6.371e6


def orbital_period(semi_major_axis, central_mass=EARTH_MASS):
    return 2 * math.pi * math.sqrt(semi_major_axis**3 / (G * central_mass))


def escape_velocity(radius=EARTH_RADIUS, mass=EARTH_MASS):
    return math.sqrt(2 * G * mass / radius)
