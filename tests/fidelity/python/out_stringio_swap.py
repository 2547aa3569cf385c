import io, sys
saved = sys.stdout
sys.stdout = io.StringIO()
print('captured')
text = sys.stdout.getvalue()
sys.stdout = saved
print(text.upper(), end='')
