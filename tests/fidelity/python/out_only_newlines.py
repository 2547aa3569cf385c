print()
print()
