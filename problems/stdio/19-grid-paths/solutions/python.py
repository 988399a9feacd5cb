import sys

MOD = 10**9 + 7


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    rows = data[2:2 + n]
    # ways[j]: paths reaching column j of the current row
    ways = [0] * m
    ways[0] = 1
    for row in rows:
        left = 0  # paths reaching the cell to the left in this row
        new = []
        append = new.append
        for ch, up in zip(row, ways):
            left = 0 if ch == "#" else (left + up) % MOD
            append(left)
        ways = new
    print(ways[m - 1])


main()
