package main

import (
	"bufio"
	"fmt"
	"os"
)

const mod = 1000000007

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var n, m int
	if _, err := fmt.Fscan(in, &n, &m); err != nil {
		return
	}
	// ways[j]: paths reaching column j of the current row
	ways := make([]int, m)
	var row string
	for i := 0; i < n; i++ {
		fmt.Fscan(in, &row)
		for j := 0; j < m; j++ {
			switch {
			case row[j] == '#':
				ways[j] = 0
			case i == 0 && j == 0:
				ways[j] = 1
			case j > 0:
				ways[j] = (ways[j] + ways[j-1]) % mod
			}
		}
	}
	fmt.Println(ways[m-1])
}
