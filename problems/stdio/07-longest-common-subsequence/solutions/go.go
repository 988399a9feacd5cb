package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	var a, b string
	fmt.Fscan(in, &a, &b)
	m := len(b)
	prev := make([]int, m+1)
	cur := make([]int, m+1)
	for i := 0; i < len(a); i++ {
		for j := 1; j <= m; j++ {
			if a[i] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else if prev[j] > cur[j-1] {
				cur[j] = prev[j]
			} else {
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	fmt.Println(prev[m])
}
