print(credits)
