print('before', flush=True)
raise KeyboardInterrupt
