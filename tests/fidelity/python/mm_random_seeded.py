import random
random.seed(12345)
print(random.randint(1, 10 ** 9), random.random())
