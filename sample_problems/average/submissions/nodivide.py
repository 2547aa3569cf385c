# Reads n but never checks it. @EXPECTED_RESULT@: RE
n = int(input())
values = list(map(int, input().split()))
print(sum(values) / (n - 1))
