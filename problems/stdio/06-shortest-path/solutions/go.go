package main

import (
	"bufio"
	"container/heap"
	"os"
	"strconv"
)

type edge struct {
	to int32
	w  int64
}

type item struct {
	dist int64
	node int32
}

type minHeap []item

func (h minHeap) Len() int            { return len(h) }
func (h minHeap) Less(i, j int) bool  { return h[i].dist < h[j].dist }
func (h minHeap) Swap(i, j int)       { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x interface{}) { *h = append(*h, x.(item)) }
func (h *minHeap) Pop() interface{} {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func main() {
	sc := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<16))
	sc.Split(bufio.ScanWords)
	next := func() int64 {
		sc.Scan()
		v, _ := strconv.ParseInt(sc.Text(), 10, 64)
		return v
	}
	n, m, s := int(next()), int(next()), int(next())
	adj := make([][]edge, n+1)
	for i := 0; i < m; i++ {
		u, v, w := next(), next(), next()
		adj[u] = append(adj[u], edge{int32(v), w})
	}

	dist := make([]int64, n+1)
	for i := range dist {
		dist[i] = -1
	}
	dist[s] = 0
	h := &minHeap{{0, int32(s)}}
	for h.Len() > 0 {
		it := heap.Pop(h).(item)
		if it.dist != dist[it.node] {
			continue
		}
		for _, e := range adj[it.node] {
			nd := it.dist + e.w
			if dist[e.to] < 0 || nd < dist[e.to] {
				dist[e.to] = nd
				heap.Push(h, item{nd, e.to})
			}
		}
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	for u := 1; u <= n; u++ {
		w.WriteString(strconv.FormatInt(dist[u], 10))
		w.WriteByte('\n')
	}
}
