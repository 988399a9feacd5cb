function broken(x: number {
    return x;
}
