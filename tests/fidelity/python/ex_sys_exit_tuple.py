raise SystemExit(1, 2)
