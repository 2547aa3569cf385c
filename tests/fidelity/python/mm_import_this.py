import this
