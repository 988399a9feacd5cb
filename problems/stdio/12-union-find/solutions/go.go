package main

import (
	"bufio"
	"os"
	"strconv"
)

type disjointSets struct {
	parent, size []int
}

func newDisjointSets(n int) *disjointSets {
	d := &disjointSets{parent: make([]int, n), size: make([]int, n)}
	for i := range d.parent {
		d.parent[i] = i
		d.size[i] = 1
	}
	return d
}

func (d *disjointSets) find(x int) int {
	for d.parent[x] != x {
		d.parent[x] = d.parent[d.parent[x]]
		x = d.parent[x]
	}
	return x
}

func (d *disjointSets) union(a, b int) {
	a, b = d.find(a), d.find(b)
	if a == b {
		return
	}
	if d.size[a] < d.size[b] {
		a, b = b, a
	}
	d.parent[b] = a
	d.size[a] += d.size[b]
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	sc.Split(bufio.ScanWords)
	word := func() string {
		sc.Scan()
		return sc.Text()
	}
	num := func() int {
		v, _ := strconv.Atoi(word())
		return v
	}
	n, q := num(), num()
	ds := newDisjointSets(n + 1)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i := 0; i < q; i++ {
		op := word()
		a, b := num(), num()
		if op == "union" {
			ds.union(a, b)
		} else if ds.find(a) == ds.find(b) {
			w.WriteString("YES\n")
		} else {
			w.WriteString("NO\n")
		}
	}
}
