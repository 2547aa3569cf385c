import json
print(json.dumps({'b': [1, 2], 'a': None}, sort_keys=True))
