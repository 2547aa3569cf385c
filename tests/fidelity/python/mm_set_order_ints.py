print(list({5, 3, 1, 9}))
