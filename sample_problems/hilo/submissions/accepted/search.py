lo, hi = 1, {{max_value}}
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    answer = input()
    if answer == "correct":
        break
    if answer == "higher":
        lo = mid + 1
    else:
        hi = mid - 1
