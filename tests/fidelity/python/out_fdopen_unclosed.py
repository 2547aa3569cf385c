import os
w = os.fdopen(1, 'w')
w.write('fdopen, never closed\n')
