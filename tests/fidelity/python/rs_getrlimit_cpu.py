import resource
soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
print(soft == 0 or soft > 0)
