package main

import (
	"bufio"
	"fmt"
	"os"
)

func editDistance(s, t string) int {
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			best := prev[j-1]
			if s[i-1] != t[j-1] {
				best++
			}
			if prev[j]+1 < best {
				best = prev[j] + 1
			}
			if cur[j-1]+1 < best {
				best = cur[j-1] + 1
			}
			cur[j] = best
		}
		prev, cur = cur, prev
	}
	return prev[len(t)]
}

func main() {
	in := bufio.NewReader(os.Stdin)
	var s, t string
	if _, err := fmt.Fscan(in, &s, &t); err != nil {
		return
	}
	fmt.Println(editDistance(s, t))
}
