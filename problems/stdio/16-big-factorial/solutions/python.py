import math
import sys


def main():
    n = int(sys.stdin.readline())
    # 1000! has 2568 digits, below Python's default 4300-digit limit on int -> str conversion
    print(math.factorial(n))


main()
