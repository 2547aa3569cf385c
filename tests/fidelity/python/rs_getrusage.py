import resource
r = resource.getrusage(resource.RUSAGE_SELF)
print(r.ru_utime >= 0, r.ru_maxrss > 0)
