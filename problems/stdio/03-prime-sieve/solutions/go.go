package main

import (
	"bufio"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<16))
	sc.Split(bufio.ScanWords)
	next := func() int {
		sc.Scan()
		v, _ := strconv.Atoi(sc.Text())
		return v
	}
	q := next()
	qs := make([]int, q)
	max := 2
	for i := range qs {
		qs[i] = next()
		if qs[i] > max {
			max = qs[i]
		}
	}

	composite := make([]bool, max+1)
	composite[0], composite[1] = true, true
	for i := 2; i*i <= max; i++ {
		if !composite[i] {
			for j := i * i; j <= max; j += i {
				composite[j] = true
			}
		}
	}
	count := make([]int32, max+1)
	var c int32
	for i := 0; i <= max; i++ {
		if !composite[i] {
			c++
		}
		count[i] = c
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	for _, x := range qs {
		w.WriteString(strconv.Itoa(int(count[x])))
		w.WriteByte('\n')
	}
}
