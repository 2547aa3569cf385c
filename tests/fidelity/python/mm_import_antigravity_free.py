import importlib.util
print(importlib.util.find_spec('antigravity') is not None)
