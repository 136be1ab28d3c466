from recipebox.units import tbsp_to_ml, tsp_to_ml


def test_tbsp():
    assert tbsp_to_ml(2) == 30


def test_tsp():
    assert tsp_to_ml(3) == 15
