# Attacks: memory exhaustion from Python, 1 MiB of filled bytes at a time. Contained: MLE.
chunks = []
while True:
    chunks.append(b"x" * (1 << 20))  # filled, so every page is touched
