import os
print(os.environ.get('PYTHONUNBUFFERED'), os.environ.get('PYTHONDONTWRITEBYTECODE'))
