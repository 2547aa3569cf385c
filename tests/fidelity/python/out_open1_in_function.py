def main():
    out = open(1, 'w', closefd=False)
    out.write('local file object\n')
main()
