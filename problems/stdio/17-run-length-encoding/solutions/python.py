import sys
from itertools import groupby


def encode(line):
    return "".join(f"{ch}{sum(1 for _ in run)}" for ch, run in groupby(line))


def main():
    data = sys.stdin.read()
    lines = data.split("\n")
    if data.endswith("\n"):
        lines.pop()  # the text after the last newline is not a line
    sys.stdout.write("".join(encode(line) + "\n" for line in lines))


main()
