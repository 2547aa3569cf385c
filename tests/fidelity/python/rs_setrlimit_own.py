import resource
resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
