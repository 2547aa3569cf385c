print('r')
raise SystemExit
