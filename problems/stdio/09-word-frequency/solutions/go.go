package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"sort"
	"strconv"
)

func isLetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func main() {
	data, _ := io.ReadAll(bufio.NewReader(os.Stdin))
	first, text := data, []byte{}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		first, text = data[:i], data[i+1:]
	}
	k, _ := strconv.Atoi(string(bytes.TrimSpace(first)))

	counts := make(map[string]int)
	words := bytes.FieldsFunc(bytes.ToLower(text), func(r rune) bool {
		return r > 0x7f || !isLetter(byte(r))
	})
	for _, w := range words {
		counts[string(w)]++
	}

	type entry struct {
		word  string
		count int
	}
	entries := make([]entry, 0, len(counts))
	for w, c := range counts {
		entries = append(entries, entry{w, c})
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].count != entries[j].count {
			return entries[i].count > entries[j].count
		}
		return entries[i].word < entries[j].word
	})
	if len(entries) > k {
		entries = entries[:k]
	}

	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, e := range entries {
		w.WriteString(e.word)
		w.WriteByte(' ')
		w.WriteString(strconv.Itoa(e.count))
		w.WriteByte('\n')
	}
}
