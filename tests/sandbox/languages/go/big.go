package main

import "fmt"

func main() {
	b := make([]byte, 200<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	s := 0
	for i := 0; i < len(b); i += 4096 {
		s += int(b[i])
	}
	fmt.Println(s * 4096 >> 20)
}
