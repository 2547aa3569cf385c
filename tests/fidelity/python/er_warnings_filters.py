import warnings
print(len(warnings.filters) > 0, [f[0] for f in warnings.filters][:1])
