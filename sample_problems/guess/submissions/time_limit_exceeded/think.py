print(500, flush=True)
input()
while True:  # thinks forever about the next guess
    pass
