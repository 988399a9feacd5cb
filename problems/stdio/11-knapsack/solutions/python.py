import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, cap = int(data[0]), int(data[1])
    vals = list(map(int, data[2:2 + 2 * n]))
    # best[c]: the largest value of a subset of the items so far with weight <= c
    best = [0] * (cap + 1)
    for i in range(0, 2 * n, 2):
        w, v = vals[i], vals[i + 1]
        if w > cap:
            continue
        # one whole row at a time: best[c] vs best[c - w] + v for c >= w, from the old row
        best[w:] = [x if x >= y + v else y + v for x, y in zip(best[w:], best)]
    print(best[cap])


main()
