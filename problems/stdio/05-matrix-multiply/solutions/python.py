import sys
from operator import mul

MOD = 10**9 + 7


def main():
    data = sys.stdin.buffer.read().split()
    n, m, p = int(data[0]), int(data[1]), int(data[2])
    vals = [int(x) % MOD for x in data[3:3 + n * m + m * p]]
    a = [vals[i * m:(i + 1) * m] for i in range(n)]
    off = n * m
    b = [vals[off + k * p:off + (k + 1) * p] for k in range(m)]
    cols = list(zip(*b))  # columns of b
    out = []
    for row in a:
        out.append(" ".join([str(sum(map(mul, row, col)) % MOD) for col in cols]))
    sys.stdout.write("\n".join(out) + "\n")


main()
