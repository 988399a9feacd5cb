package main

import (
	"bufio"
	"os"
	"strconv"
)

const mod = 1000000007

func main() {
	sc := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<16))
	sc.Split(bufio.ScanWords)
	next := func() int64 {
		sc.Scan()
		v, _ := strconv.ParseInt(sc.Text(), 10, 64)
		return v
	}
	readMatrix := func(rows, cols int) [][]int64 {
		a := make([][]int64, rows)
		for i := range a {
			a[i] = make([]int64, cols)
			for j := range a[i] {
				x := next() % mod
				if x < 0 {
					x += mod
				}
				a[i][j] = x
			}
		}
		return a
	}
	n, m, p := int(next()), int(next()), int(next())
	a := readMatrix(n, m)
	b := readMatrix(m, p)

	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	row := make([]int64, p)
	for i := 0; i < n; i++ {
		for j := range row {
			row[j] = 0
		}
		for k := 0; k < m; k++ {
			aik := a[i][k]
			for j, bkj := range b[k] {
				row[j] = (row[j] + aik*bkj) % mod
			}
		}
		for j, x := range row {
			if j > 0 {
				w.WriteByte(' ')
			}
			w.WriteString(strconv.FormatInt(x, 10))
		}
		w.WriteByte('\n')
	}
}
