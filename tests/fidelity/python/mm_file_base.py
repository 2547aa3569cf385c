import os
print(os.path.basename(__file__), os.path.isabs(__file__))
