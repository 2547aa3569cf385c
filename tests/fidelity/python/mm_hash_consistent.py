print(hash('abc') == hash('ab' + 'c'), hash(1) == 1)
