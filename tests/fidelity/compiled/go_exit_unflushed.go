package main

import (
	"bufio"
	"os"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	w.WriteString("lost: os.Exit does not flush\n")
	os.Exit(4)
}
