import sys
from heapq import heappop, heappush


def main():
    data = sys.stdin.buffer.read().split()
    n, m, s = int(data[0]), int(data[1]), int(data[2])
    adj = [[] for _ in range(n + 1)]
    vals = list(map(int, data[3:3 + 3 * m]))
    for i in range(0, 3 * m, 3):
        adj[vals[i]].append((vals[i + 1], vals[i + 2]))

    dist = [-1] * (n + 1)
    done = [False] * (n + 1)
    dist[s] = 0
    heap = [(0, s)]
    while heap:
        d, u = heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in adj[u]:
            nd = d + w
            dv = dist[v]
            if dv < 0 or nd < dv:
                dist[v] = nd
                heappush(heap, (nd, v))
    sys.stdout.write("\n".join(map(str, dist[1:])) + "\n")


main()
