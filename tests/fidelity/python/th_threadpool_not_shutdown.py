from concurrent.futures import ThreadPoolExecutor
import time
ex = ThreadPoolExecutor(2)
f = ex.submit(lambda: (time.sleep(0.05), print('pool task done')))
print('submitted')
