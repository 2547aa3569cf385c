package main

import "fmt"

func main() {
	fmt.Println("before")
	var s []int
	fmt.Println(s[3])
}
