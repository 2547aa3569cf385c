from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(4) as ex:
    print(list(ex.map(lambda x: x * x, range(10))))
