package main

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
)

func encode(line string, w *bufio.Writer) {
	for i := 0; i < len(line); {
		j := i
		for j < len(line) && line[j] == line[i] {
			j++
		}
		w.WriteByte(line[i])
		w.WriteString(strconv.Itoa(j - i))
		i = j
	}
	w.WriteByte('\n')
}

func main() {
	r := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for {
		line, err := r.ReadString('\n')
		if len(line) > 0 {
			encode(strings.TrimSuffix(line, "\n"), w)
		}
		if err == io.EOF {
			break
		}
	}
}
