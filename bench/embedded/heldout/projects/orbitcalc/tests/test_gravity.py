from orbitcalc.gravity import EARTH_RADIUS, escape_velocity, orbital_period


def test_escape_velocity_earth():
    assert 11_000 < escape_velocity() < 11_300


def test_iss_period_about_92_minutes():
    minutes = orbital_period(EARTH_RADIUS + 420e3) / 60
    assert 90 < minutes < 95
