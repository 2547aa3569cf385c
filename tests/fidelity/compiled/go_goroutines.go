package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	sums := make([]int, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); for j := 0; j <= i; j++ { sums[i] += j } }(i)
	}
	wg.Wait()
	total := 0
	for _, s := range sums { total += s }
	fmt.Println(total)
}
