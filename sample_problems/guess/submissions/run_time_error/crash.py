print(500, flush=True)
reply = input()
raise RuntimeError(f"gave up after hearing {reply!r}")
