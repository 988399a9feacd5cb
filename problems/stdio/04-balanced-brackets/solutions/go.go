package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"
)

func balanced(s []byte, stack []byte) bool {
	stack = stack[:0]
	for _, c := range s {
		switch c {
		case '(', '[', '{':
			stack = append(stack, c)
		default:
			want := byte('{')
			if c == ')' {
				want = '('
			} else if c == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0
}

func main() {
	data, _ := io.ReadAll(bufio.NewReader(os.Stdin))
	fields := bytes.Fields(data)
	t, _ := strconv.Atoi(string(fields[0]))
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	stack := make([]byte, 0, 1024)
	for _, s := range fields[1 : t+1] {
		if balanced(s, stack) {
			w.WriteString("YES\n")
		} else {
			w.WriteString("NO\n")
		}
	}
}
