# Two decimals are not enough. @EXPECTED_RESULTS@: WRONG-ANSWER
n = int(input())
values = list(map(int, input().split()))
print(f"{sum(values) / n:.2f}")
