import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    best = None
    best_here = 0  # the best sum of a block ending at the current element
    for a in map(int, data[1:1 + n]):
        best_here = best_here + a if best_here > 0 else a
        if best is None or best_here > best:
            best = best_here
    print(best)


main()
