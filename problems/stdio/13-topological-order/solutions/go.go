package main

import (
	"bufio"
	"container/heap"
	"os"
	"strconv"
)

// minHeap is a min-heap of vertex numbers.
type minHeap []int

func (h minHeap) Len() int            { return len(h) }
func (h minHeap) Less(i, j int) bool  { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x interface{}) { *h = append(*h, x.(int)) }
func (h *minHeap) Pop() interface{} {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	sc.Split(bufio.ScanWords)
	num := func() int {
		sc.Scan()
		v, _ := strconv.Atoi(sc.Text())
		return v
	}
	n, m := num(), num()
	adj := make([][]int, n+1)
	indeg := make([]int, n+1)
	for i := 0; i < m; i++ {
		a, b := num(), num()
		adj[a] = append(adj[a], b)
		indeg[b]++
	}
	ready := &minHeap{}
	for v := 1; v <= n; v++ {
		if indeg[v] == 0 {
			*ready = append(*ready, v)
		}
	}
	heap.Init(ready)
	order := make([]int, 0, n)
	for ready.Len() > 0 {
		v := heap.Pop(ready).(int)
		order = append(order, v)
		for _, w := range adj[v] {
			indeg[w]--
			if indeg[w] == 0 {
				heap.Push(ready, w)
			}
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if len(order) < n {
		out.WriteString("IMPOSSIBLE\n")
		return
	}
	for i, v := range order {
		if i > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(strconv.Itoa(v))
	}
	out.WriteByte('\n')
}
