package main

func main() { return undefinedThing }
