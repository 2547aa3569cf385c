name = input().strip()
raise SystemExit(f"crashing on purpose for {name}")
