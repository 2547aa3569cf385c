# Ignores the input and always greets the world.
print("Hello World!")
