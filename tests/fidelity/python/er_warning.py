import warnings
warnings.warn('careful')
print('warned')
