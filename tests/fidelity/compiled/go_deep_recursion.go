package main

import "fmt"

func depth(n int) int {
	if n == 0 {
		return 0
	}
	return depth(n-1) + 1
}

func main() { fmt.Println(depth(3000000)) }
