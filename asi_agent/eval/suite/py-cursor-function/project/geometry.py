import math


def circle_area(radius):
    return math.pi * radius ** 2


def square_area(side):
    return side * side
