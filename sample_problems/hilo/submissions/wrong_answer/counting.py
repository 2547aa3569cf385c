for guess in range(1, 1000001):  # one by one: out of queries at once
    print(guess, flush=True)
    if input() == "correct":
        break
