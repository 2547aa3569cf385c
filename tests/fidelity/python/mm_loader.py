print(type(__loader__).__name__, __loader__.name, __spec__, __package__, __cached__)
