n = int(input())
values = list(map(int, input().split()))
total = 0
for i in range(n):
    for j in range(i + 1):  # re-adds the prefix every time
        total += values[j] if j == i else 0
print(total)
