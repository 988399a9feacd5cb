package main

func main() {
	var hog [][]byte
	for {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = 1
		}
		hog = append(hog, b)
	}
}
