import sys
from bisect import bisect_left, bisect_right


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = list(map(int, data[1:1 + n]))
    q = int(data[1 + n])
    qs = list(map(int, data[2 + n:2 + n + 2 * q]))
    out = []
    for i in range(0, 2 * q, 2):
        l, r = qs[i], qs[i + 1]
        out.append(bisect_right(a, r) - bisect_left(a, l) if l <= r else 0)
    sys.stdout.write("\n".join(map(str, out)) + "\n")


main()
