import heapq, bisect
h = [5, 1, 4]
heapq.heapify(h)
print(heapq.heappop(h), bisect.bisect_left([1, 3, 5], 4))
