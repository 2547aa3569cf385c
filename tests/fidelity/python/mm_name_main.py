def main():
    print('main called')
if __name__ == '__main__':
    main()
