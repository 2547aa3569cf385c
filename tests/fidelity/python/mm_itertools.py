import itertools
print(list(itertools.permutations('abc', 2))[:3], list(itertools.accumulate([1, 2, 3])))
