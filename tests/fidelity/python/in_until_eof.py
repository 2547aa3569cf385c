count = 0
while True:
    try:
        line = input()
    except EOFError:
        break
    count += 1
print(count)
