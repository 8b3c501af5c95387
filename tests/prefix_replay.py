#!/usr/bin/env python3
"""prefix_replay.py -- an independent replay of a Mooncake trace's hash ids
through a prefix cache, for tests/cli_prefix.sh to hold fleetsim's token
hit rate against.  Not fleetsim code: it reads the JSON lines itself.

Usage: prefix_replay.py TRACE BLOCK [CAPACITY_BLOCKS]

Requests are taken in the file's order, one at a time.  A prompt of n
tokens has (n - 1) // BLOCK cacheable blocks (the block holding the last
token is always computed); block j is named by the hash id of the 512-token
block its last token falls in, and j.  A request's hit is its leading
blocks already cached.  Without CAPACITY_BLOCKS the cache keeps every
block; with it, it keeps that many, evicting the least recently used, a
request's blocks used last to first (the head of a prompt most recently,
as vLLM frees a request's blocks in reverse).  Prints the token hit rate:
hit tokens over prompt tokens."""
import json
import sys
from collections import OrderedDict


def main():
    path, bs = sys.argv[1], int(sys.argv[2])
    cap = int(sys.argv[3]) if len(sys.argv) > 3 else None
    cache = OrderedDict() if cap is not None else {}
    hit_tokens = prompt_tokens = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            n_in, ids = r["input_length"], r["hash_ids"]
            keys = [(ids[((j + 1) * bs - 1) // 512], j)
                    for j in range((n_in - 1) // bs)]
            hit = 0
            while hit < len(keys) and keys[hit] in cache:
                hit += 1
            if cap is None:
                cache.update((k, True) for k in keys[hit:])
            else:
                for k in reversed(keys):
                    cache[k] = True
                    cache.move_to_end(k)
                while len(cache) > cap:
                    cache.popitem(last=False)
            hit_tokens += hit * bs
            prompt_tokens += n_in
    print("%.6f" % (hit_tokens / prompt_tokens))


main()
