print('never runs')
def f(:
    pass
