package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

var values = []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
var symbols = []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
var symbolValue = map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

func toRoman(n int) string {
	var b strings.Builder
	for i, v := range values {
		for n >= v {
			b.WriteString(symbols[i])
			n -= v
		}
	}
	return b.String()
}

func fromRoman(s string) int {
	total := 0
	for i := 0; i < len(s); i++ {
		v := symbolValue[s[i]]
		if i+1 < len(s) && v < symbolValue[s[i+1]] {
			total -= v
		} else {
			total += v
		}
	}
	return total
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Split(bufio.ScanWords)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		tok := sc.Text()
		if tok[0] >= '0' && tok[0] <= '9' {
			n, _ := strconv.Atoi(tok)
			w.WriteString(toRoman(n))
		} else {
			w.WriteString(strconv.Itoa(fromRoman(tok)))
		}
		w.WriteByte('\n')
	}
}
