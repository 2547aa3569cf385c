import contextlib, io
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print('inside')
print(repr(buf.getvalue()))
