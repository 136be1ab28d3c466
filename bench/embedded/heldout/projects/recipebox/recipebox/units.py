"""Kitchen unit conversions."""

GRAMS_PER_CUP = {
    "flour": 120,
    "sugar": 200,
    "butter": 227,
    "rice": 185,
}

ML_PER_TBSP = 15
ML_PER_TSP = 5


def tbsp_to_ml(tbsp):
    return tbsp * ML_PER_TBSP


def tsp_to_ml(tsp):
    return tsp * ML_PER_TSP
