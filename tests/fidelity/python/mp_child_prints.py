import multiprocessing as mp
if __name__ == '__main__':
    p = mp.get_context('fork').Process(target=print, args=('child prints',))
    p.start()
    p.join()
    print('parent', p.exitcode)
