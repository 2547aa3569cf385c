import random
print(0 <= random.random() < 1)
