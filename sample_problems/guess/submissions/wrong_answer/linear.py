# Guesses 1, 2, 3, ...: too many guesses for most numbers.
guess = 1
while True:
    print(guess, flush=True)
    if input().strip() == "correct":
        break
    guess += 1
