print(copyright)
