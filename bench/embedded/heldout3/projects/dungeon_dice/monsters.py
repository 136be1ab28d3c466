# name, hit points, damage die
MONSTERS = [
    {"name": "giant rat", "hp": 4, "damage": 4},
    {"name": "goblin", "hp": 7, "damage": 6},
    {"name": "skeleton", "hp": 10, "damage": 6},
    {"name": "gelatinous cube", "hp": 18, "damage": 8},
    {"name": "cave troll", "hp": 24, "damage": 10},
    {"name": "wyvern", "hp": 30, "damage": 12},
]


def by_name(name):
    for monster in MONSTERS:
        if monster["name"] == name:
            return dict(monster)
    raise KeyError(name)
