résultat = 41 + 1
print(résultat)
