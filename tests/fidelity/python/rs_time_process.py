import time
t = time.process_time()
sum(range(10 ** 5))
print(time.process_time() >= t)
