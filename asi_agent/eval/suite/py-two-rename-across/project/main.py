from api import fetch

print(fetch('x'))
