import math
print(math.gcd(12, 18), math.isqrt(10 ** 20), math.comb(30, 15), math.pi)
