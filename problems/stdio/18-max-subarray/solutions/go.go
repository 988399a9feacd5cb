package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	sc.Split(bufio.ScanWords)
	sc.Scan()
	n, _ := strconv.Atoi(sc.Text())
	best, bestHere := int64(math.MinInt64), int64(0)
	for i := 0; i < n; i++ {
		sc.Scan()
		a, _ := strconv.ParseInt(sc.Text(), 10, 64)
		if bestHere > 0 {
			bestHere += a
		} else {
			bestHere = a
		}
		if bestHere > best {
			best = bestHere
		}
	}
	fmt.Println(best)
}
