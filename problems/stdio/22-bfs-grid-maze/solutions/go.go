package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	sc.Split(bufio.ScanWords)
	sc.Scan()
	n, _ := strconv.Atoi(sc.Text())
	sc.Scan()
	m, _ := strconv.Atoi(sc.Text())
	// the grid flattened row by row with a border of walls around it
	w := m + 2
	grid := make([]byte, (n+2)*w)
	for i := range grid {
		grid[i] = '#'
	}
	start, end := -1, -1
	for i := 1; i <= n; i++ {
		sc.Scan()
		row := sc.Bytes()
		for j := 1; j <= m; j++ {
			p := i*w + j
			grid[p] = row[j-1]
			switch grid[p] {
			case 'S':
				start = p
			case 'E':
				end = p
			}
		}
	}
	dist := make([]int32, len(grid))
	for i := range dist {
		dist[i] = -1
	}
	steps := [4]int{-1, 1, -w, w}
	queue := make([]int, 0, len(grid))
	dist[start] = 0
	queue = append(queue, start)
	for head := 0; head < len(queue) && dist[end] < 0; head++ {
		p := queue[head]
		for _, s := range steps {
			q := p + s
			if grid[q] != '#' && dist[q] < 0 {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	fmt.Println(dist[end])
}
