import sys

TABLE = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
VALUE = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    out = []
    for value, symbol in TABLE:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


def from_roman(s):
    total = 0
    for i, c in enumerate(s):
        v = VALUE[c]
        # a symbol smaller than the one after it is subtracted
        if i + 1 < len(s) and v < VALUE[s[i + 1]]:
            total -= v
        else:
            total += v
    return total


def main():
    out = []
    for line in sys.stdin.read().split():
        out.append(to_roman(int(line)) if line[0].isdigit() else str(from_roman(line)))
    sys.stdout.write("".join(s + "\n" for s in out))


main()
