print(int(input().split()[0]) * 2)
exit()
