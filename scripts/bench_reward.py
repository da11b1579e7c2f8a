"""Throughput of `reward_batch` on 1 M completions, and the speed-up from 1 to 2 worker processes.

A pool of distinct (record, completion) pairs is generated once from the shipped benchmark: each prompt's
witness, up to 3 of its mutants (one constraint broken on purpose) and the 3 synthetic responders of
`ifhier.run.responders` (root-only, no-format, one-slip); a third of them wrapped as a reasoning model would
send them (`<think>...</think>` before, `<|im_end|>` after). The pool is tiled to N = 1,000,000 (override with
IFHIER_BENCH_REWARD_N) and scored with a warm, persistent process pool of 1 and then 2 workers — the way a
trainer keeps one pool across steps. Partial-credit mode, strict profile, `dedup=False` so every
row is really checked (the default `dedup=True` would score each distinct pair once; that figure is printed too)."""
import os, time
from concurrent.futures import ProcessPoolExecutor

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
from ifhier.io import data_path, read_jsonl                  # noqa: E402
from ifhier.tree import ConstraintNode                        # noqa: E402
from ifhier.bench.witness import witness_response             # noqa: E402
from ifhier.bench.mutate import mutants                       # noqa: E402
from ifhier.run.responders import respond_root_only, respond_no_format, respond_one_slip  # noqa: E402
from ifhier.reward.verify import reward_batch                 # noqa: E402

N = int(os.environ.get("IFHIER_BENCH_REWARD_N", 1_000_000))

def pool():
    "Distinct (record, completion) pairs over the shipped benchmark."
    recs, comps = [], []
    for r in read_jsonl(data_path("ifhierbench.jsonl")):
        t = ConstraintNode.from_json(r["tree"])
        cs = [witness_response(t), *[m["response"] for m in mutants(t)[:3]],
              respond_root_only(t, seed=1), respond_no_format(t, seed=1), respond_one_slip(t, seed=1)]
        for c in cs:
            recs.append(r); comps.append(f"<think>Plan the answer.</think>\n{c}<|im_end|>" if len(comps) % 3 == 0 else c)
    return recs, comps

def main():
    t0 = time.perf_counter()
    recs, comps = pool()
    k = -(-N // len(comps))
    R, C = (recs * k)[:N], (comps * k)[:N]
    mean_chars = sum(map(len, comps)) / len(comps)
    print(f"pool: {len(comps):,} distinct completions over {len(set(r['id'] for r in recs))} prompts "
          f"(mean {mean_chars:,.0f} chars), built in {time.perf_counter() - t0:.1f} s; tiled to {N:,}")
    rates = {}
    for w in (1, 2):
        with ProcessPoolExecutor(w) as ex:
            t1 = time.perf_counter()
            reward_batch(R[:2000], C[:2000], executor=ex, chunksize=500)         # warm the workers (imports)
            warm = time.perf_counter() - t1
            t1 = time.perf_counter()
            s = reward_batch(R, C, executor=ex, chunksize=4096, dedup=False)   # every row scored: no credit for the tiling
            dt = time.perf_counter() - t1
            if w == 2:
                t2 = time.perf_counter(); reward_batch(R, C, executor=ex); dd = time.perf_counter() - t2
        rates[w] = N / dt
        print(f"workers={w}: {N:,} completions in {dt:.1f} s = {rates[w]:,.0f} completions/s "
              f"(pool start + warm-up {warm:.1f} s; mean reward {sum(s) / len(s):.3f})", flush=True)
    print(f"(with dedup=True, the default, the tiled batch is {len(comps):,} distinct checks: {dd:.1f} s for {N:,} rows)")
    print(f"speed-up 1 -> 2 workers: {rates[2] / rates[1]:.2f}x on {os.cpu_count()} cores")

if __name__ == "__main__":
    main()
