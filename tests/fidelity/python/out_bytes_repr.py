print(b'\x00\xff', bytearray(b'ab'))
