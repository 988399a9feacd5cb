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
	if !sc.Scan() {
		return
	}
	n, _ := strconv.Atoi(sc.Text())
	xs := make([]float64, n)
	sum := 0.0
	for i := range xs {
		sc.Scan()
		xs[i], _ = strconv.ParseFloat(sc.Text(), 64)
		sum += xs[i]
	}
	mean := sum / float64(n)
	sq := 0.0
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	fmt.Printf("%.6f\n%.6f\n", mean, math.Sqrt(sq/float64(n)))
}
