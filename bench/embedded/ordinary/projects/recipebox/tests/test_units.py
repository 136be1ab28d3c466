from recipebox.units import grams_to_ounces, ounces_to_grams


def test_ounces_to_grams():
    assert ounces_to_grams(2) == 56.7


def test_grams_to_ounces():
    assert grams_to_ounces(283.5) == 10.0
