import sys


def main():
    a, b = sys.stdin.buffer.read().split()[:2]
    n = len(a)
    # Bit-parallel LCS (Allison-Dix / Hyyro): bit i of v is 0 where row i of the DP
    # table steps up; the LCS length is the number of 0 bits among the low n bits.
    match = {}
    for i, c in enumerate(a):
        match[c] = match.get(c, 0) | (1 << i)
    mask = (1 << n) - 1
    v = mask
    for c in b:
        u = v & match.get(c, 0)
        v = ((v + u) | (v - u)) & mask
    print(n - bin(v).count("1"))


main()
