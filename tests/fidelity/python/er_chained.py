try:
    {}['k']
except KeyError as e:
    raise ValueError('wrapped') from e
