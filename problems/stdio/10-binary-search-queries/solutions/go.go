package main

import (
	"bufio"
	"os"
	"sort"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<16))
	sc.Split(bufio.ScanWords)
	next := func() int64 {
		sc.Scan()
		v, _ := strconv.ParseInt(sc.Text(), 10, 64)
		return v
	}
	n := int(next())
	a := make([]int64, n)
	for i := range a {
		a[i] = next()
	}
	q := int(next())

	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	for ; q > 0; q-- {
		l, r := next(), next()
		count := 0
		if l <= r {
			hi := sort.Search(n, func(i int) bool { return a[i] > r })
			lo := sort.Search(n, func(i int) bool { return a[i] >= l })
			count = hi - lo
		}
		w.WriteString(strconv.Itoa(count))
		w.WriteByte('\n')
	}
}
