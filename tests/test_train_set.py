"""`ifhier train-set`: training prompts disjoint from the benchmark, every witness scoring reward 1.0, and the
seed-task split that keeps them apart (the benchmark's tasks are exactly the test split)."""
import json, sys
from pathlib import Path
import pandas as pd
from ifhier.cli import call
from ifhier.io import data_path, read_jsonl
from ifhier.bench.sampler import load_tasks
from ifhier.reward.trainset import load_split, split_from_bench
from ifhier.reward.verify import reward_batch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from validate_seed_tasks import validate  # noqa: E402

BENCH = read_jsonl(data_path("ifhierbench.jsonl"))

def _key(t): return json.dumps(t, sort_keys=True)

def test_train_set_is_disjoint_from_the_benchmark_and_its_witnesses_score_one(tmp_path):
    out, pq = tmp_path / "train.jsonl", tmp_path / "train.parquet"
    code, msg, err = call("train-set", "--n", 60, "--seed", 5, "--out", out, "--parquet", pq)
    assert code == 0, err
    assert "wrote 60 training prompts (15 at depth 0, 15 at depth 1, 15 at depth 2, 15 at depth 3)" in msg, msg
    recs = read_jsonl(out)
    for col in ("id", "prompt", "tree", "task_id", "depth", "witness", "messages", "ground_truth", "dataset",
                "data_source", "ability", "reward_model", "extra_info"):
        assert col in recs[0], col
    assert not {r["task_id"] for r in recs} & {r["task_id"] for r in BENCH}
    assert not {_key(r["tree"]) for r in recs} & {_key(r["tree"]) for r in BENCH}
    assert len({_key(r["tree"]) for r in recs}) == 60 and len({r["id"] for r in recs}) == 60
    assert reward_batch(recs, [r["witness"] for r in recs], mode="binary") == [1.0] * 60
    df = pd.read_parquet(pq)
    assert list(df.id) == [r["id"] for r in recs]
    assert reward_batch([{"tree": g} for g in df.ground_truth], list(df.witness)) == [1.0] * 60
    again = tmp_path / "again.jsonl"                                     # deterministic from the seed
    assert call("train-set", "--n", 60, "--seed", 5, "--out", again)[0] == 0
    assert again.read_bytes() == out.read_bytes()

def test_filters_and_bad_options(tmp_path):
    out = tmp_path / "t.jsonl"
    code, _, err = call("train-set", "--n", 8, "--depths", "1,3", "--types", "markdown.", "--out", out)
    assert code == 0, err
    recs = read_jsonl(out)
    assert [r["depth"] for r in recs] == [1, 3] * 4 and all('"markdown.' in r["ground_truth"] for r in recs)
    for argv, needle in ((("--depths", "5"), "within 0-3"), (("--depths", "a"), "comma-separated integers"),
                         (("--types", "string.nope"), "unknown constraint type"), (("--n", "0"), "positive integer")):
        code, _, err = call("train-set", "--out", out, *(("--n", 2) if "--n" not in argv else ()), *argv)
        assert code == 2 and needle in err and "Traceback" not in err, (argv, err)
    bench_tasks = tmp_path / "mine.jsonl"                               # your own tasks: the benchmark's are dropped
    bench_tasks.write_text("".join(json.dumps(t) + "\n" for t in load_tasks(data_path("seed_tasks.jsonl"))[:5]))
    code, _, err = call("train-set", "--n", 2, "--tasks", bench_tasks, "--out", out)
    assert code == 2 and "no task is left" in err, err

def test_the_split_is_the_benchmark_and_the_train_tasks_are_clean():
    seed = load_tasks(data_path("seed_tasks.jsonl"))
    split = load_split()
    assert {k: split[k] for k in ("test", "train")} == split_from_bench(seed, BENCH), \
        "the benchmark changed: regenerate ifhier/data/seed_split.json with split_from_bench"
    extra = load_tasks(data_path(split["train_tasks"]))
    assert not {t["task_id"] for t in extra} & {t["task_id"] for t in seed}
    errs, _, _ = validate(data_path(split["train_tasks"]))
    assert [e for e in errs if e.startswith("line ")] == []             # every per-task rule (corpus-size rules are the seed file's)
