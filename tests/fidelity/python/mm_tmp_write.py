import tempfile
with tempfile.NamedTemporaryFile('w+') as f:
    f.write('tmp ok')
    f.seek(0)
    print(f.read())
