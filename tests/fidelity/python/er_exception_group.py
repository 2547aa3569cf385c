raise ExceptionGroup('many', [ValueError(1), TypeError(2)])
