"""The IFEval bench's synthetic generator is seeded, covers all 25 ids, and scores cleanly in both modes."""
import importlib.util, json, warnings
from pathlib import Path
from ifhier.ifeval.profile import IFEVAL
from ifhier.ifeval.score import score_ifeval

def _bench():
    spec = importlib.util.spec_from_file_location("bench_ifeval", Path(__file__).parents[1] / "scripts" / "bench_ifeval.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def test_bench_pair_is_seeded_covers_all_ids_and_scores(tmp_path):
    b = _bench()
    (tmp_path / "a").mkdir(); (tmp_path / "b").mkdir()
    i1, r1 = b.make_pair(tmp_path / "a", n=60, seed=3)
    i2, r2 = b.make_pair(tmp_path / "b", n=60, seed=3)
    assert i1.read_text() == i2.read_text() and r1.read_text() == r2.read_text()
    ids = {i for line in i1.read_text().splitlines() for i in json.loads(line)["instruction_id_list"]}
    assert ids == set(IFEVAL)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # every prompt has a response
        s = score_ifeval(i1, r1, tmp_path / "s.jsonl")
        l = score_ifeval(i1, r1, tmp_path / "l.jsonl", loose=True)
    top = lambda df: df.set_index("level").loc[["prompt", "instruction"], "followed"].tolist()
    assert all(a <= b_ for a, b_ in zip(top(s), top(l)))
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 60

def test_bench_agreement_and_langdetect_free_subset(tmp_path):
    b = _bench()
    i, r = b.make_pair(tmp_path, n=60, seed=1)
    li, lr, k = b.without_langdetect(i, r, tmp_path / "nolang")
    ids = [json.loads(l)["instruction_id_list"] for l in li.read_text().splitlines()]
    assert 0 < k == len(ids) < 60 and not {x for xs in ids for x in xs} & set(b.LANGDETECT_IDS)
    assert len(lr.read_text().splitlines()) == k
    from ifhier.cli import call
    for name in ("a", "b"): assert call("ifeval", "score", "--input", i, "--responses", r, "--out-dir", tmp_path / name)[0] == 0
    same = b.agreement(tmp_path / "a", tmp_path / "b")
    assert all(a["instructions"] == a["total"] and a["identical_bytes"] and not a["differ"] for a in same.values())
    f = tmp_path / "b" / "eval_results_loose.jsonl"
    recs = [json.loads(l) for l in f.read_text().splitlines()]
    recs[0]["follow_instruction_list"][0] = not recs[0]["follow_instruction_list"][0]
    f.write_text("".join(json.dumps(x) + "\n" for x in recs))
    d = b.agreement(tmp_path / "a", tmp_path / "b")["loose"]
    assert (d["total"] - d["instructions"], d["n"] - d["prompts"], d["identical_bytes"]) == (1, 1, False)
    assert d["differ"][0][1] == recs[0]["instruction_id_list"][0]
