import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    rows = data[2:2 + n]
    width = m + 2
    # the grid, flattened row by row, surrounded by a border of walls
    grid = b"#" * width + b"".join(b"#" + row + b"#" for row in rows) + b"#" * width
    start, end = grid.index(b"S"), grid.index(b"E")
    # open_[p] is 1 while cell p is passable and not yet reached
    open_ = bytearray(grid.translate(bytes.maketrans(b"#.SE", b"\x00\x01\x01\x01")))
    open_[start] = 0
    frontier = [start]
    steps = 0
    while frontier:
        if not open_[end]:
            print(steps)
            return
        steps += 1
        nxt = []
        append = nxt.append
        for p in frontier:
            for q in (p - 1, p + 1, p - width, p + width):
                if open_[q]:
                    open_[q] = 0
                    append(q)
        frontier = nxt
    print(-1)


main()
