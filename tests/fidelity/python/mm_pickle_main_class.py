import pickle
class K:
    pass
print(type(pickle.loads(pickle.dumps(K()))).__module__)
