# @EXPECTED_RESULT@: AC
n = int(input())
values = list(map(int, input().split()))
print(sum(values) / n)
