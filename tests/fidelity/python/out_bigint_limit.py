try:
    print(str(10 ** 5000))
except ValueError as e:
    print('limit', type(e).__name__)
