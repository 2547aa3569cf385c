import warnings
warnings.warn('old', DeprecationWarning)
print('main module deprecation shown')
