name = input().strip()
x = 0
while True:  # far too slow
    x += 1
print(f"Hello {name}!")
