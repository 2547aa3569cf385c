x: int = 3
print(__annotations__)
