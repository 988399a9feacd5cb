package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

func main() {
	data, _ := io.ReadAll(bufio.NewReader(os.Stdin))
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer w.Flush()
	for _, line := range lines {
		words := bytes.Fields(line)
		for i := len(words) - 1; i >= 0; i-- {
			w.Write(words[i])
			if i > 0 {
				w.WriteByte(' ')
			}
		}
		w.WriteByte('\n')
	}
}
