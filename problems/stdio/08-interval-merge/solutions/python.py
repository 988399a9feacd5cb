import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    vals = list(map(int, data[1:1 + 2 * n]))
    intervals = sorted(zip(vals[0::2], vals[1::2]))
    merged = []
    for l, r in intervals:
        if merged and l <= merged[-1][1]:
            if r > merged[-1][1]:
                merged[-1][1] = r
        else:
            merged.append([l, r])
    out = [str(len(merged))]
    out.extend(f"{l} {r}" for l, r in merged)
    sys.stdout.write("\n".join(out) + "\n")


main()
