# @EXPECTED_SCORE@: 100
input()
print(sum(map(int, input().split())))
