x = 3
match x:
    case 3 if (y := x * 2):
        print('matched', y)
