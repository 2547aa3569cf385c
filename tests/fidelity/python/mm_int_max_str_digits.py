import sys
print(sys.get_int_max_str_digits())
