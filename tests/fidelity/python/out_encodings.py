import sys, locale
print(sys.getdefaultencoding(), sys.getfilesystemencoding(), locale.getpreferredencoding(False))
