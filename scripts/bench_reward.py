"""Throughput of `reward_batch` on DISTINCT completions, streamed, at 1 and 2 worker processes.

How the completions are made (`distinct_stream`): a base pool over the shipped benchmark — each prompt's witness,
up to 3 of its mutants (one constraint broken on purpose) and the root-only, no-format and one-slip responders —
then, for completion i, base answer i mod |pool| rewritten with a per-sample seed (sample = i div |pool|): each
filler word (a lower-case word of the witness vocabulary that no constraint of the prompt names) is replaced, with
probability 1/4, by a random vocabulary word, and an answer with fewer than 3 words replaced gets a seeded closing
sentence of 6 vocabulary words. Every third completion is wrapped as a reasoning model sends it (`<think>...</think>`
before, `<|im_end|>` after); a rewrite that equals an earlier completion (about 1 in 10^5) is drawn again. The
completions are checked to be pairwise distinct (SHA-1 of every one) before timing, written once to a temporary JSONL file, and each measurement runs in a fresh process that STREAMS that file
in training-step batches of `BATCH` through `reward_batch` on a persistent process pool, keeping nothing but the
running sum: so its peak memory (the largest of the process and its pool workers) is the same at N and 2N. The verdicts are the checker's real
ones on every row (the rewrites can break a keyword or a letter count: the score counts it).

Each child first warms its pool on the hard tier's witness answers (other prompts, the same constraint types), so
imports, nltk's tables and compiled patterns are in place before the clock starts; the clock then runs only inside
`reward_batch` (the batch's JSON lines are read outside it), and the whole stream's rate is printed beside it.

The same stream also goes through the reward of commit BASE_COMMIT (the one before issue 24, from a git worktree
under the temporary folder): now and before are run ROUNDS times each, alternated, and the best rate of each is
compared, so a load that other processes put on a shared machine for a while slows both, not one of them.

The figure that tiles a pool of 3,977 distinct answers to 1 M rows is kept, labelled as TILED; with `dedup=True`
(the default) a tiled batch costs its distinct pairs only."""
import hashlib, json, os, random, re, resource, subprocess, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
sys.path.insert(0, str(Path(__file__).resolve().parent))
try: from benchout import record
except ImportError: record = lambda *a, **k: None

N = int(os.environ.get("IFHIER_BENCH_REWARD_N", 200_000))
TILED_N = int(os.environ.get("IFHIER_BENCH_REWARD_TILED_N", 200_000))
BATCH = 8192
# the benchmark both sides score, named by path: the base commit's own `data_path` would read the core it shipped (build 1.3)
BENCH_FILE = str(Path(__file__).resolve().parent.parent / "ifhier" / "data" / "ifhierbench.jsonl")
# the warm-up: the hard tier's witness answers (other prompts, the same constraint types), written once by `main`
HARD_FILE = str(Path(BENCH_FILE).with_name("ifhierbench_hard.jsonl"))
WARM_FILE = os.path.join(tempfile.gettempdir(), "ifhier-bench-reward-warm.jsonl")

def write_warm(path:str=WARM_FILE, n:int=600)->int:
    "Write [hard-tier index, witness answer] rows for the first `n` hard prompts: each child warms its pool on them, both sides alike."
    from ifhier.io import read_jsonl
    from ifhier.tree import ConstraintNode
    from ifhier.bench.witness import witness_response
    rows = [[k, witness_response(ConstraintNode.from_json(r["tree"]))] for k, r in enumerate(read_jsonl(HARD_FILE)[:n])]
    with open(path, "w") as f: f.writelines(json.dumps(r) + "\n" for r in rows)
    return len(rows)

def base_pool()->tuple[list, list]:
    "(benchmark index, completion) lists: witness, 3 mutants, 3 responders per prompt (the 3,977 distinct answers)."
    from ifhier.io import read_jsonl
    from ifhier.tree import ConstraintNode
    from ifhier.bench.witness import witness_response
    from ifhier.bench.mutate import mutants
    from ifhier.run.responders import respond_root_only, respond_no_format, respond_one_slip
    idx, comps = [], []
    for k, r in enumerate(read_jsonl(BENCH_FILE)):
        t = ConstraintNode.from_json(r["tree"])
        for c in [witness_response(t), *[m["response"] for m in mutants(t)[:3]],
                  respond_root_only(t, seed=1), respond_no_format(t, seed=1), respond_one_slip(t, seed=1)]:
            idx.append(k); comps.append(c)
    return idx, comps

_WORD = re.compile(r"\b[a-z]{3,}\b")

def _vocab()->list:
    from ifhier.bench.leaves import VOCAB
    return sorted(VOCAB)

def rewrite(text:str, named:set, vocab:list, rng:random.Random)->str:
    "`text` with each filler word (in `vocab`, not in `named`) swapped for a random vocabulary word with probability 1/4; a closing sentence if fewer than 3 were."
    vs, hits = set(vocab), 0
    def sub(m):
        nonlocal hits
        w = m.group()
        if w not in vs or w in named: return w
        if rng.random() >= .25: return w
        hits += 1
        return rng.choice(vocab)
    out = _WORD.sub(sub, text)
    return out if hits >= 3 else out + " " + " ".join(rng.choice(vocab) for _ in range(6)).capitalize() + "."

def distinct_stream(n:int):
    "Yield `n` (benchmark index, completion) pairs, all completions distinct (see the module docstring)."
    from ifhier.io import read_jsonl
    bench = read_jsonl(BENCH_FILE)
    named = [set(re.findall(r"[a-z]+", json.dumps(r["tree"]).lower())) for r in bench]
    idx, comps = base_pool()
    vocab = _vocab()
    seen = set()
    for i in range(n):
        j, s = i % len(comps), i // len(comps)
        rng = random.Random(f"{s}:{j}")
        while True:                      # a rewrite equal to an earlier completion (1 in ~10^5) is drawn again
            c = rewrite(comps[j], named[idx[j]], vocab, rng)
            c = f"<think>Plan the answer.</think>\n{c}<|im_end|>" if i % 3 == 0 else c
            if (h := hashlib.sha1(c.encode("utf-8", "surrogatepass")).digest()) not in seen: break
        seen.add(h)
        yield idx[j], c

def write_stream(path:Path, n:int)->dict:
    "Write the distinct stream to `path` (JSONL [index, completion]); assert distinctness; return its stats."
    seen, chars, t0 = set(), 0, time.perf_counter()
    with open(path, "w") as f:
        for k, c in distinct_stream(n):
            seen.add(hashlib.sha1(c.encode("utf-8", "surrogatepass")).digest()); chars += len(c)
            f.write(json.dumps([k, c]) + "\n")
    assert len(seen) == n, f"only {len(seen):,} of {n:,} completions are distinct"
    return dict(n=n, distinct=len(seen), mean_chars=chars / n, seconds=time.perf_counter() - t0)

def _batches(path:Path, size:int):
    batch = []
    with open(path) as f:
        for line in f:
            batch.append(json.loads(line))
            if len(batch) == size: yield batch; batch = []
    if batch: yield batch

def _peak_mb()->float:
    "Peak resident memory of the largest process: this one or one pool worker (MB; Linux reports KB)."
    return max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024

BASE_COMMIT = os.environ.get("IFHIER_BENCH_REWARD_BASE", "3624286")   # the reward before issue 24, timed in the same run

def base_checkout()->Path|None:
    "A worktree of BASE_COMMIT (made once under the system temp folder), or None if git cannot make it."
    d = Path(tempfile.gettempdir()) / f"ifhier-base-{BASE_COMMIT}"
    if not (d / "ifhier").exists():
        root = Path(__file__).resolve().parent.parent
        r = subprocess.run(["git", "-C", str(root), "worktree", "add", "-f", "--detach", str(d), BASE_COMMIT], capture_output=True, text=True)
        if r.returncode: print(f"(no baseline: {r.stderr.strip()[:200]})"); return None
    return d

def percall(path:str, n:int)->dict:
    "In a fresh process: `reward()` called once per completion, the tree given as JSON text (as the README's adapters pass it)."
    from ifhier.io import read_jsonl
    from ifhier.reward.verify import reward
    bench = read_jsonl(BENCH_FILE)
    texts = [json.dumps(r["tree"]) for r in bench]
    rows = [json.loads(l) for _, l in zip(range(n), open(path))]
    for k, c in rows[:200]: reward({"tree": texts[k]}, c)
    t0 = time.perf_counter(); total = sum(reward({"tree": texts[k]}, c) for k, c in rows); dt = time.perf_counter() - t0
    return dict(n=len(rows), rate=len(rows) / dt, mean_reward=total / len(rows))

def child(path:str, workers:int, n:int, guarded:bool=False)->dict:
    "In a fresh process: stream `path` through `reward_batch` on a pool of `workers` (`executor=`, or guarded: its own pool per batch, default limit); rate and peak memory."
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import nullcontext
    from ifhier.io import read_jsonl
    from ifhier.reward.verify import reward_batch
    bench = read_jsonl(BENCH_FILE)
    total, rows = 0.0, 0
    with nullcontext() if guarded else ProcessPoolExecutor(workers) as ex:
        kw = dict(workers=workers) if guarded else dict(executor=ex)
        warm = [json.loads(l) for l in open(WARM_FILE)] if os.path.exists(WARM_FILE) else []
        if warm:                          # start the workers on real answers to other prompts: imports, nltk's tables, patterns
            hard = read_jsonl(HARD_FILE)
            reward_batch([hard[k] for k, _ in warm], [c for _, c in warm], **kw, **({} if guarded else dict(chunksize=50)))
        else: reward_batch(bench[:200], ["warm up"] * 200, **kw, **({} if guarded else dict(chunksize=100)))
        t0, busy = time.perf_counter(), 0.0
        for b in _batches(Path(path), BATCH):
            b = b[:n - rows]
            if not b: break
            recs, comps = [bench[k] for k, _ in b], [c for _, c in b]
            t1 = time.perf_counter(); s = reward_batch(recs, comps, **kw); busy += time.perf_counter() - t1
            total += sum(s); rows += len(b)
        dt = time.perf_counter() - t0
    return dict(workers=workers, n=rows, seconds=dt, busy=busy, rate=rows / busy, stream_rate=rows / dt, mean_reward=total / rows, peak_mb=_peak_mb())

def _constraints_per_prompt()->list:
    from ifhier.io import read_jsonl
    from ifhier.tree import ConstraintNode, iter_nodes
    return [sum(len(v.node.constraints) for v in iter_nodes(ConstraintNode.from_json(r["tree"], validate=False))) for r in read_jsonl(BENCH_FILE)]

def _run_child(path:Path, workers:int, n:int, base:Path|None=None, what:str="--child")->dict:
    env = dict(os.environ, PYTHONPATH=str(base)) if base else None
    r = subprocess.run([sys.executable, __file__, what, str(path), str(workers), str(n)], capture_output=True, text=True, env=env, cwd=base)
    if r.returncode: raise RuntimeError(r.stderr[-2000:])
    return json.loads(r.stdout.splitlines()[-1])

ROUNDS = int(os.environ.get("IFHIER_BENCH_REWARD_ROUNDS", 3))   # alternated runs of now and before, each

def _alternate(now, before)->tuple:
    "(best of `now()`, best of `before()`) by rate over ROUNDS alternated calls each: both see the same share of a shared machine's load."
    a, b = [], []
    for _ in range(ROUNDS): a.append(now()); b.append(before())
    return max(a, key=lambda r: r["rate"]), max(b, key=lambda r: r["rate"])

def tiled(n:int)->dict:
    "The old figure: the 3,977 distinct answers TILED to `n` rows, every row checked (`dedup=False`), 2 workers."
    from concurrent.futures import ProcessPoolExecutor
    from ifhier.io import read_jsonl
    from ifhier.reward.verify import reward_batch
    bench = read_jsonl(BENCH_FILE)
    idx, comps = base_pool()
    k = -(-n // len(comps))
    R, C = [bench[i] for i in (idx * k)[:n]], (comps * k)[:n]
    with ProcessPoolExecutor(2) as ex:
        reward_batch(R[:2000], C[:2000], executor=ex, chunksize=500)
        t0 = time.perf_counter(); reward_batch(R, C, executor=ex, chunksize=4096, dedup=False); dt = time.perf_counter() - t0
    return dict(n=n, distinct=len(set(comps)), rate=n / dt)

def main(n:int=N):
    per_prompt = _constraints_per_prompt()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "distinct.jsonl"
        st = write_stream(path, 2 * n)
        write_warm()
        print(f"distinct stream: {st['n']:,} completions, all pairwise distinct (SHA-1), mean {st['mean_chars']:,.0f} chars, "
              f"made in {st['seconds']:.1f} s (not timed below)")
        vpc = 0
        with open(path) as f:
            for _, line in zip(range(n), f): vpc += per_prompt[json.loads(line)[0]]
        vpc /= n
        res = {}
        for w, m in ((1, n), (2, n), (2, 2 * n)):
            r = res[(w, m)] = _run_child(path, w, m)
            print(f"reward_batch, {w} worker(s), {r['n']:,} distinct completions streamed in batches of {BATCH:,}: {r['seconds']:.1f} s = "
                  f"{r['rate']:,.0f} completions/s, {r['rate'] * vpc:,.0f} verdicts/s; peak memory {r['peak_mb']:,.0f} MB "
                  f"(mean reward {r['mean_reward']:.3f})", flush=True)
        g = {w: _run_child(path, w, min(n, 20_000), None, "--guarded") for w in (1, 2)}
        print(f"reward_batch guarded (workers=N, the default per-answer time limit), {g[1]['n']:,} distinct completions in batches of {BATCH:,}: "
              f"1 worker {g[1]['rate']:,.0f}, 2 workers {g[2]['rate']:,.0f} completions/s", flush=True)
        base = base_checkout()
        if base is not None:                       # the same streams through the pre-issue-24 reward, in this run
            nb = min(n, 50_000)                    # now and before alternate, ROUNDS each, best of each: a busy machine slows one, not the ratio
            for w in (1, 2):
                a, b = _alternate(lambda: _run_child(path, w, nb), lambda: _run_child(path, w, nb, base))
                print(f"  before (commit {BASE_COMMIT}), {w} worker(s), {b['n']:,} completions: {b['rate']:,.0f} completions/s "
                      f"-> now {a['rate']:,.0f} = {a['rate'] / b['rate']:.2f}x (best of {ROUNDS} each, alternated; mean reward {b['mean_reward']:.3f} / {a['mean_reward']:.3f})", flush=True)
                record(f"reward_batch.distinct.workers{w}.vs_base", round(a["rate"] / b["rate"], 2), "x", f"commit {BASE_COMMIT}")
        m = min(n, 20_000)
        if base is None: now = _run_child(path, 0, m, None, "--percall")
        else: now, b = _alternate(lambda: _run_child(path, 0, m, None, "--percall"), lambda: _run_child(path, 0, m, base, "--percall"))
        print(f"reward() per call, tree as JSON text, {m:,} distinct completions: {now['rate']:,.0f} completions/s "
              f"({1e6 / now['rate']:.0f} us each, mean reward {now['mean_reward']:.3f})", flush=True)
        record("reward.percall", round(now["rate"]), "completions/s", None)
        if base is not None:
            print(f"  before (commit {BASE_COMMIT}): {b['rate']:,.0f} completions/s -> now {now['rate'] / b['rate']:.2f}x "
                  f"(best of {ROUNDS} each, alternated; mean reward {b['mean_reward']:.3f})", flush=True)
            record("reward.percall.vs_base", round(now["rate"] / b["rate"], 2), "x", f"commit {BASE_COMMIT}")
        up = res[(2, n)]["rate"] / res[(1, n)]["rate"]
        print(f"speed-up 1 -> 2 workers: {up:.2f}x on {os.cpu_count()} cores; peak memory at N={n:,}: {res[(2, n)]['peak_mb']:,.0f} MB, "
              f"at 2N={2 * n:,}: {res[(2, 2 * n)]['peak_mb']:,.0f} MB")
        for w in (1, 2):
            record(f"reward_batch.distinct.workers{w}", round(res[(w, n)]["rate"]), "completions/s", f"{n:,} distinct completions, streamed")
            record(f"reward_batch.distinct.workers{w}.verdicts", round(res[(w, n)]["rate"] * vpc), "verdicts/s", None)
            record(f"reward_batch.distinct.workers{w}.peak_memory", round(res[(w, n)]["peak_mb"]), "MB", None)
        record("reward_batch.distinct.speedup_1_to_2", round(up, 2), "x", "reward_batch.distinct.workers1")
        record("reward_batch.distinct.workers2.peak_memory_2N", round(res[(2, 2 * n)]["peak_mb"]), "MB", "reward_batch.distinct.workers2.peak_memory")
    import_time()
    t = tiled(TILED_N)
    print(f"TILED (not distinct: {t['distinct']:,} answers repeated to {t['n']:,} rows, dedup=False), 2 workers: {t['rate']:,.0f} completions/s")
    record("reward_batch.tiled.workers2", round(t["rate"]), "completions/s", f"TILED: {t['distinct']:,} distinct answers repeated")

def import_time(k:int=7)->None:
    "`python -c 'from ifhier.reward import reward'` against bare python: best of `k` fresh processes each."
    def best(code):
        ts = []
        for _ in range(k):
            t0 = time.perf_counter(); subprocess.run([sys.executable, "-c", code], check=True); ts.append(time.perf_counter() - t0)
        return min(ts)
    bare, imp = best("pass"), best("from ifhier.reward import reward; reward")
    print(f"python -c 'from ifhier.reward import reward': {imp:.3f} s (bare python {bare:.3f} s, ratio {imp / bare:.1f}x)")
    record("reward.import_seconds", round(imp, 3), "s", None); record("reward.import_ratio_to_bare_python", round(imp / bare, 1), "x", None)

if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]: print(json.dumps(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
    elif sys.argv[1:2] == ["--guarded"]: print(json.dumps(child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), guarded=True)))
    elif sys.argv[1:2] == ["--percall"]: print(json.dumps(percall(sys.argv[2], int(sys.argv[4]))))
    else: main()
