import fileinput
print(sum(1 for _ in fileinput.input()))
