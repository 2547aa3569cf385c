package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	n, last := 0, ""
	for sc.Scan() {
		n++
		last = sc.Text()
	}
	fmt.Println(n, last)
}
