import traceback
print(len(traceback.extract_stack()))
