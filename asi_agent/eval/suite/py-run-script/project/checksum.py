print(sum(i * i for i in range(1, 38)) % 9973)
