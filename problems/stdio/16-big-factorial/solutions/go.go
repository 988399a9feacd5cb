package main

import (
	"fmt"
	"math/big"
)

func main() {
	var n int64
	if _, err := fmt.Scan(&n); err != nil {
		return
	}
	f := big.NewInt(1)
	if n >= 2 {
		f.MulRange(2, n)
	}
	fmt.Println(f.String())
}
