import multiprocessing as mp
def child(q):
    q.put('from child')
if __name__ == '__main__':
    ctx = mp.get_context('fork')
    q = ctx.Queue()
    p = ctx.Process(target=child, args=(q,))
    p.start()
    print(q.get())
    p.join()
    print(p.exitcode)
