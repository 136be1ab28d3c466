import math

MAX_SERVINGS = 12


def scale(quantity, from_servings, to_servings):
    return quantity * from_servings / to_servings


def scale_recipe(recipe, from_servings, to_servings):
    if to_servings > MAX_SERVINGS:
        raise ValueError(f"at most {MAX_SERVINGS} servings")
    scaled = {}
    for name, quantity in recipe.items():
        amount = scale(quantity, from_servings, to_servings)
        scaled[name] = math.ceil(amount) if name == "eggs" else round(amount, 1)
    return scaled
