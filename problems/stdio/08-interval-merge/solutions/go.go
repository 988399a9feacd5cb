package main

import (
	"bufio"
	"os"
	"sort"
	"strconv"
)

type interval struct{ l, r int64 }

func main() {
	sc := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<16))
	sc.Split(bufio.ScanWords)
	next := func() int64 {
		sc.Scan()
		v, _ := strconv.ParseInt(sc.Text(), 10, 64)
		return v
	}
	n := int(next())
	iv := make([]interval, n)
	for i := range iv {
		iv[i].l = next()
		iv[i].r = next()
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i].l < iv[j].l })

	merged := iv[:0] // merging in place: merged never gets ahead of the reading index
	for _, x := range iv {
		if k := len(merged); k > 0 && x.l <= merged[k-1].r {
			if x.r > merged[k-1].r {
				merged[k-1].r = x.r
			}
		} else {
			merged = append(merged, x)
		}
	}

	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	w.WriteString(strconv.Itoa(len(merged)))
	w.WriteByte('\n')
	for _, x := range merged {
		w.WriteString(strconv.FormatInt(x.l, 10))
		w.WriteByte(' ')
		w.WriteString(strconv.FormatInt(x.r, 10))
		w.WriteByte('\n')
	}
}
