import faulthandler
print(faulthandler.is_enabled())
