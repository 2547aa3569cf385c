from collections import Counter, deque, defaultdict
print(Counter('abracadabra').most_common(2), deque([1, 2], maxlen=2), dict(defaultdict(int, a=1)))
