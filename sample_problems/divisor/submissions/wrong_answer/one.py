input()
print(1)  # 1 is not a proper divisor
