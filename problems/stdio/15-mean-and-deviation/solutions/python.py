import math
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    xs = [float(v) for v in data[1:1 + n]]
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / n
    print(f"{mean:.6f}\n{math.sqrt(var):.6f}")


main()
