import multiprocessing as mp
if __name__ == '__main__':
    with mp.get_context('fork').Pool(2) as p:
        print(p.map(abs, [-1, -2, 3]))
