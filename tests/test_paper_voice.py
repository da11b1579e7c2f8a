"""The paper's voice (issue 23 item 5): the shipped trees re-worded in the appendix-A.4 style keep ids, trees and
witnesses, and `ifhier report --compare` on two runs of the two wordings gives the paired wording effect per depth
and node kind, with bootstrap CIs and Holm-adjusted exact McNemar p-values."""
import json
import pandas as pd
from ifhier.cli import call
from ifhier.io import data_path, write_jsonl
from ifhier.bench.build import load_bench
from ifhier.bench.voice import paper_sentences
from ifhier.bench.witness import witness_verdicts
from ifhier.registry import REGISTRY
from ifhier.tree import ConstraintNode, iter_nodes

BENCH = str(data_path("ifhierbench.jsonl"))

def _task(r): return dict(task_id=r["task_id"], genre=r["genre"], task=r["task"], context=r.get("context"))

def test_every_type_speaks_the_paper_voice():
    assert len(REGISTRY) == 35 and all(isinstance(t.voices.get("paper"), str) for t in REGISTRY.values())

def test_paper_voice_of_the_shipped_benchmark(tmp_path):
    out = tmp_path / "paper.jsonl"
    code, msg, err = call("build", "--voice", "paper", "--from", BENCH, "--out", out)
    assert code == 0 and "600 prompts" in msg and "paper voice" in msg, err
    src, paper = load_bench(BENCH), load_bench(out)
    assert [r["id"] for r in paper] == [r["id"] for r in src]
    for a, b in zip(src, paper):
        assert b["voice"] == "paper" and {k: v for k, v in a.items() if k != "prompt"} == {k: v for k, v in b.items() if k not in ("prompt", "voice")}
        t = ConstraintNode.from_json(b["tree"])
        ss = [s for _, c, s in paper_sentences(t) if c]
        assert len(ss) == sum(len(v.node.constraints) for v in iter_nodes(t))              # one sentence per constraint
        body = b["prompt"].split("\n\n")[-1]
        assert all(s in body for s in ss) and b["prompt"] != a["prompt"] and b["prompt"].startswith(a["task"])
        w, vs = witness_verdicts(t, task=_task(b))                                         # the tree is still witnessed
        assert vs and all(v.passed for v in vs), (b["id"], [v for v in vs if not v.passed][:1])
    again = tmp_path / "again.jsonl"   # re-rendering is deterministic
    assert call("build", "--voice", "paper", "--from", BENCH, "--out", again)[0] == 0 and again.read_bytes() == out.read_bytes()
    code, _, err = call("build", "--voice", "ifhier", "--from", out, "--out", tmp_path / "back.jsonl")
    assert code == 2 and err.count("\n") == 1 and "'paper' voice" in err, err

def test_build_in_the_paper_voice_draws_the_same_trees(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert call("build", "--seed", 5, "--per-depth", 2, "--out", a)[0] == 0
    assert call("build", "--seed", 5, "--per-depth", 2, "--voice", "paper", "--out", b)[0] == 0
    ra, rb = load_bench(a), load_bench(b)
    assert [(r["id"], r["tree"]) for r in ra] == [(r["id"], r["tree"]) for r in rb]
    assert "voice" not in ra[0] and {r["voice"] for r in rb} == {"paper"} and all(x["prompt"] != y["prompt"] for x, y in zip(ra, rb))

def _wording(out_dir):
    c = pd.read_csv(out_dir / "compare.csv")
    return c[c.group == "wording"].set_index(["level", "value"])

def test_report_compare_gives_the_wording_effect(tmp_path):
    src = load_bench(BENCH)
    sub = [r for d in range(4) for r in [x for x in src if x["depth"] == d][:20]]   # 20 trees per depth
    ours, paper = tmp_path / "ours.jsonl", tmp_path / "paper.jsonl"
    write_jsonl(sub, ours)
    assert call("build", "--voice", "paper", "--from", ours, "--out", paper)[0] == 0
    runs = {}
    for name, model, bench in (("w-ours", "witness", ours), ("w-paper", "witness", paper), ("slip-paper", "one-slip", paper)):
        runs[name] = tmp_path / name
        assert call("run", "--model", model, "--bench", bench, "--out", runs[name])[0] == 0
    # the witness answers a tree the same whatever its wording: no wording effect at all
    code, out, err = call("report", runs["w-ours"], runs["w-paper"], "--compare", "--bench", ours, "--out", tmp_path / "r0", "--n-boot", 200)
    assert code == 0, err
    assert "### Wording effect per depth and node kind" in out and "A: the ifhier voice, B: the paper voice, 80 trees in common" in out
    for d in range(4): assert f"| depth={d} |" in out
    assert "| node_kind=json |" in out and "| node_kind=string |" in out
    w0 = _wording(tmp_path / "r0")
    assert (w0["diff"] == 0).all() and (w0.ci_low == 0).all() and (w0.ci_high == 0).all() and (w0.p_adj == 1).all()
    assert set(w0.loc["prompt"].index) >= {"overall", "depth=0", "depth=1", "depth=2", "depth=3"}
    # against an answerer that slips once per answer, every row favours A, with a CI clear of 0 and Holm-adjusted p
    code, out, err = call("report", runs["w-ours"], runs["slip-paper"], "--compare", "--bench", ours, "--out", tmp_path / "r1", "--n-boot", 200)
    assert code == 0, err
    w1 = _wording(tmp_path / "r1")
    p = w1.loc["prompt"]
    assert p.loc["overall", "diff"] == 1.0 and all(p.loc[f"depth={d}", "n"] == 20 for d in range(4))
    assert (p.loc[[f"depth={d}" for d in range(4)], "ci_low"] > 0).all()
    fam = w1[w1.index.get_level_values("value") != "overall"]
    assert (fam.p_adj >= fam.p_val).all() and (fam.p_adj < 1e-4).sum() >= 4
    from statsmodels.stats.multitest import multipletests
    for lv in ("prompt", "node"):
        f = w1.loc[lv].drop("overall")
        assert abs(f.p_adj.to_numpy() - multipletests(f.p_val.to_numpy(), method="holm")[1]).max() < 1e-12
    assert "A: the ifhier voice, B: the paper voice" in (tmp_path / "r1" / "report.md").read_text(encoding="utf-8")

def test_compare_refuses_runs_of_different_trees(tmp_path):
    src = load_bench(BENCH)[:10]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(src, a); write_jsonl([dict(r, tree=src[(i + 1) % 10]["tree"]) for i, r in enumerate(src)], b)   # depth 0 all: valid records
    for name, bench in (("ra", a), ("rb", b)): assert call("run", "--model", "witness", "--bench", bench, "--out", tmp_path / name)[0] == 0
    code, _, err = call("report", tmp_path / "ra", tmp_path / "rb", "--compare", "--bench", a, "--out", tmp_path / "r", "--n-boot", 50)
    assert code == 2 and err.count("\n") == 1 and "different trees" in err, err
