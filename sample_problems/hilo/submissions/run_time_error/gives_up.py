print(500000, flush=True)
raise SystemExit(int(input() != "correct") * 3)
