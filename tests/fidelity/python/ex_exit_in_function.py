def main():
    print('main')
    exit(0)
    print('never')
main()
print('never either')
