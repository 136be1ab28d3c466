from orbitcalc.shapes import circle_area, circumference


def test_unit_circle_area():
    assert abs(circle_area(1) - 3.14159) < 1e-3


def test_circumference():
    assert abs(circumference(2) - 12.566) < 1e-2


def test_zero_radius():
    assert circle_area(0) == 0
