"""random_list.py N BOUND SEED: N integers of absolute value at most BOUND."""

import random
import sys

n, bound, seed = map(int, sys.argv[1:4])
rng = random.Random(seed)
print(n)
print(" ".join(str(rng.randint(-bound, bound)) for _ in range(n)))
