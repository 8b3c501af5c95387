#!/usr/bin/env python3
"""decoder_layers.py -- time real decoder layers on the GPU at hand, to check
fleetsim's per-layer roofline (models/llm/llm_perf.c) against a measured card.

One Llama-style decoder layer (RMSNorm, QKV, rotary-free attention through
torch's scaled_dot_product_attention, output projection, gated SiLU FFN) is
built with random weights in the shape of a models.csv row, and timed:

  prefill: one sequence of T prompt tokens (causal attention over itself);
  decode:  B sequences, one new token each, attending to a KV cache of C
           tokens each.

Weights in bf16, and in fp8 (e4m3, per-tensor scales through
torch._scaled_mm) where the GPU has fp8 tensor cores (compute capability
8.9 or above).  Each point is the median of `--iters` CUDA-event-timed runs
after `--warmup` runs.  A mixture of experts is timed as its dense part with
k experts' FFN per token (the routed experts a token runs), not the router.

Output: CSV on stdout, one row a point, with the date and the card:
  date,gpu,model,precision,phase,batch,tokens,context,layer_ms,tflops,gbs
(tflops and gbs: the layer's FLOPs and weight + KV bytes over its time).

  python3 bench/gpu/decoder_layers.py --model llama-3-8b > results.csv

Needs PyTorch with CUDA; reads models/catalog/models.csv with Python's csv
module.  Results are committed as data (bench/gpu/README.md) with the date
and the card they were measured on."""

import argparse
import csv
import datetime
import os
import statistics
import sys


def load_model(path, name):
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["name"].lower() == name.lower():
                return row
    sys.exit(f"{path}: no model '{name}'")


def shape(row):
    k = int(row["experts_per_token"]) if int(row["experts"]) > 0 else 1
    k += int(row.get("shared_experts") or 0)
    return dict(hidden=int(row["hidden"]), heads=int(row["heads"]),
                kv_heads=int(row["kv_heads"]), head_dim=int(row["head_dim"]),
                ffn=int(row["ffn"]) * k)


class Layer:
    """Random weights of one decoder layer; forward() on x [tokens, hidden]."""

    def __init__(self, torch, s, dtype, fp8):
        self.t, self.s, self.fp8 = torch, s, fp8
        dev, h = "cuda", s["hidden"]
        q, kv = s["heads"] * s["head_dim"], s["kv_heads"] * s["head_dim"]
        shapes = {"qkv": (q + 2 * kv, h), "o": (h, q),
                  "gate_up": (2 * s["ffn"], h), "down": (h, s["ffn"])}
        self.w, self.scale = {}, torch.ones((), device=dev)
        for n, (o, i) in shapes.items():
            w = torch.randn(o, i, device=dev, dtype=dtype) / i ** 0.5
            self.w[n] = w.to(torch.float8_e4m3fn).t() if fp8 else w
        self.dtype = dtype

    def mm(self, x, n):
        t = self.t
        if self.fp8:
            return t._scaled_mm(x.to(t.float8_e4m3fn), self.w[n],
                                scale_a=self.scale, scale_b=self.scale,
                                out_dtype=self.dtype)
        return x @ self.w[n].t()

    def forward(self, x, k_cache, v_cache, batch, causal):
        t, s = self.t, self.s
        q_len = x.shape[0] // batch
        qkv = self.mm(t.nn.functional.rms_norm(x, (s["hidden"],)), "qkv")
        q, k, v = qkv.split([s["heads"] * s["head_dim"],
                             s["kv_heads"] * s["head_dim"],
                             s["kv_heads"] * s["head_dim"]], dim=-1)
        q = q.view(batch, q_len, s["heads"], s["head_dim"]).transpose(1, 2)
        if k_cache is None:   # prefill: the prompt attends to itself
            k_cache = k.view(batch, q_len, s["kv_heads"], s["head_dim"])
            v_cache = v.view(batch, q_len, s["kv_heads"], s["head_dim"])
            k_cache, v_cache = k_cache.transpose(1, 2), v_cache.transpose(1, 2)
        a = t.nn.functional.scaled_dot_product_attention(
            q, k_cache, v_cache, is_causal=causal, enable_gqa=True)
        x = x + self.mm(a.transpose(1, 2).reshape(x.shape[0], -1), "o")
        g, u = self.mm(t.nn.functional.rms_norm(x, (s["hidden"],)),
                       "gate_up").chunk(2, dim=-1)
        return x + self.mm(t.nn.functional.silu(g) * u, "down")


def flops_bytes(s, tokens, ctx_pairs, kv_tokens, wbytes):
    q, kv = s["heads"] * s["head_dim"], s["kv_heads"] * s["head_dim"]
    params = s["hidden"] * (2 * q + 2 * kv) + 3 * s["hidden"] * s["ffn"]
    flops = 2 * params * tokens + 4 * q * ctx_pairs
    return flops, params * wbytes + 2 * kv * 2 * kv_tokens


def time_ms(torch, fn, warmup, iters):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iters):
        a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def points(args):
    for t in args.prefill:
        yield "prefill", 1, t, t
    for b in args.batch:
        for c in args.context:
            yield "decode", b, b, c


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", default="llama-3-8b")
    p.add_argument("--models", default=os.path.join(
        here, "..", "..", "models", "catalog", "models.csv"))
    p.add_argument("--prefill", type=int, nargs="+",
                   default=[128, 512, 2048, 8192])
    p.add_argument("--batch", type=int, nargs="+", default=[1, 8, 32, 128])
    p.add_argument("--context", type=int, nargs="+", default=[512, 4096])
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=20)
    args = p.parse_args()
    import torch   # only here: --help works without it
    if not torch.cuda.is_available():
        sys.exit("no CUDA device: nothing to measure")
    s = shape(load_model(args.models, args.model))
    gpu = torch.cuda.get_device_name()
    cc = torch.cuda.get_device_capability()
    precisions = ["bf16"] + (["fp8"] if cc >= (8, 9) else [])
    date = datetime.date.today().isoformat()
    w = csv.writer(sys.stdout)
    w.writerow(["date", "gpu", "model", "precision", "phase", "batch",
                "tokens", "context", "layer_ms", "tflops", "gbs"])
    for prec in precisions:
        layer = Layer(torch, s, torch.bfloat16, prec == "fp8")
        for phase, batch, tokens, ctx in points(args):
            x = torch.randn(tokens, s["hidden"], device="cuda",
                            dtype=torch.bfloat16)
            kc = vc = None
            if phase == "decode":
                kc = torch.randn(batch, s["kv_heads"], ctx, s["head_dim"],
                                 device="cuda", dtype=torch.bfloat16)
                vc = torch.randn_like(kc)
            ms = time_ms(torch, lambda: layer.forward(
                x, kc, vc, batch, phase == "prefill"), args.warmup,
                args.iters)
            pairs = tokens * (tokens + 1) // 2 if phase == "prefill" \
                else batch * ctx
            f, b = flops_bytes(s, tokens, pairs,
                               batch * ctx if phase == "decode" else tokens,
                               1 if prec == "fp8" else 2)
            w.writerow([date, gpu, args.model, prec, phase, batch, tokens,
                        ctx, f"{ms:.4f}", f"{f / ms / 1e9:.1f}",
                        f"{b / ms / 1e6:.1f}"])


if __name__ == "__main__":
    main()
