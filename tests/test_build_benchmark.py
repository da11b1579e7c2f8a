"""IFHierBench build (issue 3): determinism, counts, literals in prompts, witness passes, mutation kill rates.

The full 600-prompt build takes a few seconds; it is built once per session (fixture `built`)."""
import json, os
from pathlib import Path
import pytest
from ifhier.bench.build import build_benchmark, write_jsonl, summary_md, witness_response
from ifhier.bench.sampler import load_tasks
from ifhier.registry import REGISTRY
from ifhier.bench.render import literals
from ifhier.tree import ConstraintNode, iter_nodes
from ifhier.report.score import score_responses
from ifhier.bench.mutate import mutation_table, kill_rates

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "ifhier" / "data" / "seed_tasks.jsonl"

@pytest.fixture(scope="module")
def built():
    return build_benchmark(load_tasks(TASKS), seed=0)

def _bytes(recs, tmp_path, name):
    p = tmp_path / name; write_jsonl(recs, p); return p.read_bytes()

def test_same_seed_same_bytes(built, tmp_path):
    again, _ = build_benchmark(load_tasks(TASKS), seed=0)
    assert _bytes(built[0], tmp_path, "a.jsonl") == _bytes(again, tmp_path, "b.jsonl")

def test_committed_benchmark_is_the_seed0_build(built, tmp_path):
    "data/ifhierbench.jsonl must be regenerated whenever the builder changes."
    committed = ROOT / "ifhier" / "data" / "ifhierbench.jsonl"
    assert committed.read_bytes() == _bytes(built[0], tmp_path, "a.jsonl")

def test_counts_depths_types(built):
    recs, _ = built
    assert len(recs) == 600
    assert [sum(r["depth"] == d for r in recs) for d in range(4)] == [150] * 4
    assert len({r["id"] for r in recs}) == 600
    used = {cid for r in recs for v in iter_nodes(ConstraintNode.from_json(r["tree"])) for cid, _ in v.node.constraints}
    assert used == set(REGISTRY)
    for r in recs:
        t = ConstraintNode.from_json(r["tree"])          # validates the tree
        assert max(v.depth for v in iter_nodes(t)) == r["depth"]
        assert set(r) >= {"id", "depth", "task_id", "genre", "prompt", "tree", "builder_version"}

def test_every_literal_appears_in_its_prompt(built):
    missing = []
    for r in built[0]:
        for v in iter_nodes(ConstraintNode.from_json(r["tree"])):
            for cid, p in v.node.constraints:
                missing += [(r["id"], v.path, cid, forms) for forms in literals(cid, p) if not any(f in r["prompt"] for f in forms)]
    assert missing == []

def test_witness_passes_everything(built):
    recs = built[0]
    resp = [dict(prompt_id=r["id"], sample=0, model="witness", response=witness_response(r["tree"])) for r in recs]
    df = score_responses(recs, resp)
    assert len(df) == sum(len(v.node.constraints) for r in recs for v in iter_nodes(ConstraintNode.from_json(r["tree"])))
    assert df[df.verdict != "pass"][["prompt_id", "node_path", "constraint", "reason"]].values.tolist() == []

def test_mutants_are_killed_and_named(built):
    mt = mutation_table(built[0])
    assert len(mt) >= 1000
    survivors = mt[~mt.killed][["prompt_id", "node_path", "constraint", "reason"]].values.tolist()
    unnamed = mt[mt.killed & ~mt.named][["prompt_id", "constraint", "reason", "needle"]].values.tolist()
    assert survivors == [] and unnamed == []
    assert set(kill_rates(mt).constraint) == set(REGISTRY)

def test_summary_mentions_every_type(built):
    md = summary_md(*built, seed=0)
    assert all(f"| {cid} |" in md for cid in REGISTRY)
    assert "## Root format by depth" in md and "## Prompt length by depth" in md

@pytest.mark.parametrize("first", ["ifhier.checkers.case", "ifhier.checkers.combination", "ifhier.checkers.format"])
def test_import_order_does_not_change_the_build(first):
    "A checker module imported on its own before anything else (a user's notebook, a test file) builds the same bytes."
    import subprocess, sys
    code = (f"import {first}, hashlib\nfrom ifhier.registry import REGISTRY\nfrom ifhier.bench.build import build_benchmark, load_tasks\n"
            f"recs, _ = build_benchmark(load_tasks({str(TASKS)!r}), seed=0, per_depth=6)\n"
            "print(' '.join(REGISTRY)); print(hashlib.sha256(repr(recs).encode()).hexdigest())")
    runs = [subprocess.run([sys.executable, "-c", c], capture_output=True, text=True, timeout=600)
            for c in (code, code.replace(f"import {first}, hashlib", "import hashlib"))]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-1500:] for r in runs]
    assert runs[0].stdout == runs[1].stdout
